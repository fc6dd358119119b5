// `check --deep`: after checking, every spec without errors is fuzzed briefly (a fixed, small
// budget: the same seed and so the same output every time) and what the runs show joins that
// file's diagnostics, in the public docs/reference/language.md §9.1 form (no flow, step or counterexample: `fuzz` prints those).

import type { Diagnostic } from "../../checker/index";
import { compareDiagnostics } from "../../checker/index";
import type { FuzzFinding } from "../../fuzzer/index";
import { type FileReport, reportWithDiagnostics } from "../format/report";
import { loadFuzzer } from "../fuzzer-loader";
import type { CheckedInput } from "./run";

export const DEEP_RUNS = 30;
const DEEP_MAX_PATHS = 50;

export async function deepReports(checked: readonly CheckedInput[]): Promise<FileReport[]> {
  if (!checked.some((c) => c.result?.valid === true)) return checked.map((c) => c.report);
  const fuzzer = await loadFuzzer();
  const reports: FileReport[] = [];
  for (const { report, result } of checked) {
    if (result === null || !result.valid || report.lines === null) {
      reports.push(report);
      continue;
    }
    const fuzzed = await fuzzer.fuzzChecked(result, { runs: DEEP_RUNS, maxPaths: DEEP_MAX_PATHS });
    const findings = (fuzzed.report?.findings ?? []).map(publicForm);
    const all = [...report.diagnostics, ...findings].sort(compareDiagnostics);
    reports.push(reportWithDiagnostics(report.file, report.lines, all));
  }
  return reports;
}

function publicForm(f: FuzzFinding): Diagnostic {
  const { flow: _flow, step: _step, counterexample: _counterexample, ...diagnostic } = f;
  return diagnostic;
}
