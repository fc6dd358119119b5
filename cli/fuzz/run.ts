// Fuzzes what `check` would check. An input that cannot be read or has checker errors keeps its
// check report and is not fuzzed; every other spec is fuzzed on its own (a fresh engine), and its
// report's diagnostics are the fuzzer's findings (checker warnings are `check`'s business).
import type { FuzzOptions, FuzzReport } from "../../fuzzer/index";
import type { CheckedInput } from "../check/run";
import { UsageError } from "../exit-codes";
import { type FileReport, reportWithDiagnostics } from "../format/report";
import { loadFuzzer } from "../fuzzer-loader";
import type { ProgressLine } from "./progress";

export interface FuzzedFile {
  /** What the output formats print: the findings, or the check report of a spec not fuzzed. */
  readonly report: FileReport;
  /** Null when the input was not fuzzed. */
  readonly fuzz: FuzzReport | null;
}

export interface FuzzRun {
  readonly files: readonly FuzzedFile[];
  /** The seed every file was fuzzed with (the fuzzer's default unless --seed). */
  readonly seed: number;
}

export async function fuzzInputs(
  checked: readonly CheckedInput[],
  options: FuzzOptions,
  progress: ProgressLine | null,
): Promise<FuzzRun> {
  const fuzzer = await loadFuzzer();
  const files: FuzzedFile[] = [];
  try {
    for (const { report, result } of checked) {
      if (result === null || !result.valid || report.lines === null) {
        files.push({ report, fuzz: null });
        continue;
      }
      progress?.start(report.file);
      let fuzz: FuzzReport | null;
      try {
        fuzz = (
          await fuzzer.fuzzChecked(result, {
            ...options,
            onProgress: progress === null ? undefined : (p) => progress.update(p),
          })
        ).report;
      } catch (e) {
        if (e instanceof fuzzer.UnknownFlowError) throw new UsageError(`${report.file}: ${e.message}`);
        throw e;
      }
      files.push(
        fuzz === null
          ? { report, fuzz }
          : { report: reportWithDiagnostics(report.file, report.lines, fuzz.findings), fuzz },
      );
    }
  } finally {
    progress?.clear();
  }
  return { files, seed: options.seed ?? fuzzer.DEFAULT_SEED };
}
