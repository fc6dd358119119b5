// The Python reference's own specs (test/fuzzer/reference-specs, extracted by
// scripts/extract-reference-specs.mjs) as a regression corpus of real specs nobody here wrote:
// `expected.json` lists, for every spec that checks, the findings `stratumc fuzz` must report with
// default settings (`CODE:LINE`, sorted; [] for none), each of them read and judged true
// (labels.json). A finding that comes and goes with the seed, or a new one, fails.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const REFERENCE_DIR = resolve(import.meta.dirname, "../reference-specs");

/** The seeds each spec is fuzzed with. */
export const REFERENCE_SEEDS: readonly number[] = [42, 7];

/** Spec file (relative to REFERENCE_DIR) → expected findings. */
function referenceExpectations(): [string, readonly string[]][] {
  const data = JSON.parse(readFileSync(join(REFERENCE_DIR, "expected.json"), "utf8")) as Record<
    string,
    string[]
  >;
  return Object.entries(data).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Every spec whose findings with `seed` differ from expected.json, as a readable line. */
export async function referenceMismatches(files: readonly string[], seed: number): Promise<string[]> {
  const { fuzzSpec } = await import("../../../fuzzer/index");
  const expected = new Map(referenceExpectations());
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(REFERENCE_DIR, file), "utf8");
    const { report } = await fuzzSpec(text, { seed });
    const got = (report?.findings ?? []).map((f) => `${f.code}:${f.line}`).sort();
    const want = expected.get(file) ?? [];
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      problems.push(`${file} (seed ${seed}): expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return problems;
}

/** The specs of part `part` (0-based) of `parts`, so the corpus spreads over test files. */
export function referencePart(part: number, parts: number): string[] {
  return referenceExpectations()
    .map(([file]) => file)
    .filter((_, i) => i % parts === part);
}
