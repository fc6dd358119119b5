// `fuzz --format json`: `{"version": 1, "files": [...]}`, 2-space indentation, keys in a fixed
// order. A file that was not fuzzed has runs 0, paths 0, no soundness, and its check diagnostics
// as findings (flow, step and counterexample null). A file the time budget cut short has
// `stopped_by_deadline: true` and `not_explored` (the flows it never reached, without verdicts).
// `properties`: the verdict of each property of the spec's fuzzed flows, by name.

import type { FlowSoundness } from "../../fuzzer/index";
import { findingJson } from "../../fuzzer/index";
import type { FuzzedFile, FuzzRun } from "./run";

export function formatFuzzJson(run: FuzzRun): string {
  const files = run.files.map((f) => fileJson(f, run.seed));
  return `${JSON.stringify({ version: 1, files }, null, 2)}\n`;
}

function fileJson({ report, fuzz }: FuzzedFile, seed: number) {
  if (fuzz === null) {
    return {
      file: report.file,
      seed,
      runs: 0,
      paths: 0,
      exhaustive: false,
      soundness: {},
      properties: {},
      findings: report.diagnostics.map((d) => findingJson(d, null)),
    };
  }
  // Flow names are user text: they never key an object with a prototype.
  const soundness: Record<string, FlowSoundness> = Object.create(null);
  for (const [flow, s] of Object.entries(fuzz.soundness)) {
    soundness[flow] = {
      option_to_complete: s.option_to_complete,
      proper_completion: s.proper_completion,
      no_dead_steps: s.no_dead_steps,
      notes: s.notes,
      ...(s.budget_exhausted === undefined ? {} : { budget_exhausted: s.budget_exhausted }),
    };
  }
  return {
    file: report.file,
    seed: fuzz.seed,
    runs: fuzz.runs,
    paths: fuzz.paths,
    exhaustive: fuzz.exhaustive,
    soundness,
    properties: fuzz.properties,
    findings: fuzz.findings.map((f) => findingJson(f, f)),
    ...(fuzz.stoppedByDeadline ? { stopped_by_deadline: true, not_explored: fuzz.notExplored } : {}),
  };
}
