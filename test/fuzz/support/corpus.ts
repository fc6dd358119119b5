// The seeded-defect corpus (test/fuzz/corpus): each spec states what the fuzzer must find in its
// first lines, `# expect: CODE flow/step:LINE` (`flow/-:LINE` for a flow-level finding), or
// `# expect: none` for a look-alike control that is correct.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const CORPUS_DIR = resolve(import.meta.dirname, "../corpus");

export interface CorpusSpec {
  readonly name: string;
  readonly text: string;
  /** `CODE flow/step:LINE`, sorted; empty for a control. */
  readonly expected: readonly string[];
}

export function loadCorpus(): CorpusSpec[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith(".stratum.yaml"))
    .sort()
    .map((name) => {
      const text = readFileSync(join(CORPUS_DIR, name), "utf8");
      const lines = [...text.matchAll(/^# expect: (.+)$/gm)].map((m) => m[1]!.trim());
      if (lines.length === 0) throw new Error(`${name}: no '# expect:' line`);
      const expected = lines.filter((l) => l !== "none").map((l) => l.replace(/^(\S+) /, "$1 "));
      return { name, text, expected: expected.sort() };
    });
}

/** A finding in the corpus notation. */
export function notation(f: { code: string; flow: string; step: string | null; line: number }): string {
  return `${f.code} ${f.flow}/${f.step ?? "-"}:${f.line}`;
}
