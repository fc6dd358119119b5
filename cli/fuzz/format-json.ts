// `fuzz --format json`: `{"version": 1, "files": [...]}`, 2-space indentation, keys in a fixed
// order. A file that was not fuzzed has runs 0, paths 0, no soundness, and its check diagnostics
// as findings (flow, step and counterexample null).
import type { Diagnostic } from "../../checker/diagnostic";
import type { FlowSoundness, FuzzFinding } from "../../fuzzer/index";
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
    };
  }
  return {
    file: report.file,
    seed: fuzz.seed,
    runs: fuzz.runs,
    paths: fuzz.paths,
    exhaustive: fuzz.exhaustive,
    soundness,
    findings: fuzz.findings.map((f) => findingJson(f, f)),
  };
}

function findingJson(d: Diagnostic, f: FuzzFinding | null) {
  const c = f?.counterexample ?? null;
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    flow: f?.flow ?? null,
    step: f?.step ?? null,
    line: d.line,
    column: d.column,
    end_line: d.end_line,
    end_column: d.end_column,
    related: d.related ?? [],
    counterexample: c === null ? null : { seed: c.seed, input: c.input, calls: c.calls },
  };
}
