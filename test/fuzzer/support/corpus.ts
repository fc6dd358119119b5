// The seeded-defect corpus (test/fuzzer/corpus): each spec states what the fuzzer must find in its
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

/**
 * The 20 other seeds of the acceptance test (drawn at random once and kept, so a failure names a
 * seed that reproduces it), in four groups: four test files that run in parallel.
 */
export const SEED_GROUPS: readonly (readonly number[])[] = [
  [3, 5, 8, 13, 21],
  [34, 55, 89, 144, 233],
  [377, 610, 987, 1597, 2584],
  [4181, 6765, 10946, 17711, 28657],
];

/** Every spec whose findings with `seed` differ from its expectation, as a readable line. */
export async function corpusMismatches(seed: number): Promise<string[]> {
  const { fuzzSpec } = await import("../../../fuzzer/index");
  const problems: string[] = [];
  for (const spec of loadCorpus()) {
    const { report } = await fuzzSpec(spec.text, { seed });
    const got = (report?.findings ?? []).map(notation).sort();
    if (JSON.stringify(got) !== JSON.stringify(spec.expected)) {
      problems.push(`${spec.name}: expected ${JSON.stringify(spec.expected)}, got ${JSON.stringify(got)}`);
    }
  }
  return problems;
}
