// Every test of a checked scenario file, in the order written, each on a fresh engine.
import type { ScenarioCheck } from "../../checker/index";
import type { TestOutcome } from "./outcome";
import { runScenarioTest } from "./run";

/** The outcomes of the file's tests; none when the file has errors (it is not run). */
export async function runScenarioFile(check: ScenarioCheck): Promise<TestOutcome[]> {
  const { file, spec } = check;
  if (!check.valid || file === null || spec === null) return [];
  const out: TestOutcome[] = [];
  for (const test of file.tests) {
    out.push(await runScenarioTest({ specText: spec.text, spec: spec.ir, flow: file.flow.value, test }));
  }
  return out;
}
