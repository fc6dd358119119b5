// `check --deep`: after checking, every spec without errors is fuzzed briefly (a fixed, small
// budget: the same seed and so the same output every time) and what the runs show joins that
// file's diagnostics, in the public docs/reference/language.md §9.1 form (no flow, step or counterexample: `fuzz` prints those).

import type { CheckResult, Diagnostic } from "../../checker/index";
import { compareDiagnostics } from "../../checker/index";
import type { FuzzFinding } from "../../fuzzer/index";
import { type FileReport, reportWithDiagnostics } from "../format/report";
import type { CheckedInput } from "./run";

export const DEEP_RUNS = 30;
const DEEP_MAX_PATHS = 50;

/** The specs are fuzzed `jobs` at a time (cli/fuzz-workers.ts); the reports come back in input order. */
export async function deepReports(
  checked: readonly CheckedInput[],
  jobs: number | null,
): Promise<FileReport[]> {
  const fuzzable = checked.flatMap((c, i) =>
    c.result?.valid === true && c.report.lines !== null ? [i] : [],
  );
  if (fuzzable.length === 0) return checked.map((c) => c.report);
  // Loaded only here: the worker machinery is no part of a plain check.
  const { fuzzSpecs } = await import("../fuzz-workers");
  const outcomes = await fuzzSpecs(
    fuzzable.map((i) => checked[i]?.result as CheckResult),
    { jobs, fuzz: { runs: DEEP_RUNS, maxPaths: DEEP_MAX_PATHS } },
  );
  const reports = checked.map((c) => c.report);
  fuzzable.forEach((i, k) => {
    const { report } = checked[i] as CheckedInput;
    const outcome = outcomes[k];
    if (outcome === undefined || report.lines === null) return;
    const found =
      outcome.kind === "failed"
        ? [outcome.diagnostic]
        : outcome.kind === "fuzzed"
          ? (outcome.report?.findings ?? []).map(publicForm)
          : [];
    const all = [...report.diagnostics, ...found].sort(compareDiagnostics);
    reports[i] = reportWithDiagnostics(report.file, report.lines, all);
  });
  return reports;
}

function publicForm(f: FuzzFinding): Diagnostic {
  const { flow: _flow, step: _step, counterexample: _counterexample, ...diagnostic } = f;
  return diagnostic;
}
