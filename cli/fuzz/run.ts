// Fuzzes what `check` would check. An input that cannot be read or has checker errors keeps its
// check report and is not fuzzed; every other spec is fuzzed on its own (a fresh engine, on one
// of --jobs worker threads: cli/fuzz-workers.ts), and its report's diagnostics are the fuzzer's
// findings (checker warnings are `check`'s business). The files come back in input order whatever
// the lanes did, so the report is the same for any --jobs.
import type { CheckResult } from "../../checker/index";
import type { FuzzOptions, FuzzReport } from "../../fuzzer/index";
import type { CheckedInput } from "../check/run";
import { UsageError } from "../exit-codes";
import { type FileReport, reportWithDiagnostics } from "../format/report";
import type { SpecOutcome } from "../fuzz-workers";
import { loadFuzzer } from "../fuzzer-loader";
import type { ProgressLine } from "./progress";

export interface FuzzedFile {
  /** What the output formats print: the findings, or the check report of a spec not fuzzed. */
  readonly report: FileReport;
  /** Null when the input was not fuzzed (or its worker failed: the report says so). */
  readonly fuzz: FuzzReport | null;
}

export interface FuzzRun {
  readonly files: readonly FuzzedFile[];
  /** The seed every file was fuzzed with (the fuzzer's default unless --seed). */
  readonly seed: number;
}

export interface FuzzInputsOptions {
  readonly fuzz: Omit<FuzzOptions, "timeBudgetMs" | "onProgress" | "now" | "deadlineAt">;
  readonly jobs: number | null;
  /** The end of the command's time budget (Date.now time). */
  readonly deadlineAt?: number;
}

export async function fuzzInputs(
  checked: readonly CheckedInput[],
  options: FuzzInputsOptions,
  progress: ProgressLine | null,
): Promise<FuzzRun> {
  const fuzzable: number[] = [];
  checked.forEach(({ report, result }, i) => {
    if (result?.valid === true && report.lines !== null) fuzzable.push(i);
  });
  const fileOf = (k: number): string => (checked[fuzzable[k] as number] as CheckedInput).report.file;
  const { fuzzSpecs } = await import("../fuzz-workers");
  let outcomes: SpecOutcome[];
  try {
    outcomes = await fuzzSpecs(
      fuzzable.map((i) => (checked[i] as CheckedInput).result as CheckResult),
      {
        jobs: options.jobs,
        fuzz: options.fuzz,
        ...(options.deadlineAt === undefined ? {} : { deadlineAt: options.deadlineAt }),
        ...(progress === null
          ? {}
          : {
              onStart: (k: number) => progress.start(fileOf(k)),
              onProgress: (k: number, p) => progress.update(p, fileOf(k)),
            }),
      },
    );
  } finally {
    progress?.clear();
  }
  const files: FuzzedFile[] = checked.map(({ report }) => ({ report, fuzz: null }));
  fuzzable.forEach((i, k) => {
    const { report } = checked[i] as CheckedInput;
    const outcome = outcomes[k];
    if (outcome === undefined || report.lines === null) return;
    // The first spec in input order without the flow is the usage error, whatever lane met it first.
    if (outcome.kind === "unknown-flow") throw new UsageError(`${report.file}: ${outcome.message}`);
    if (outcome.kind === "failed") {
      files[i] = {
        report: reportWithDiagnostics(report.file, report.lines, [outcome.diagnostic]),
        fuzz: null,
      };
    } else if (outcome.report !== null) {
      files[i] = {
        report: reportWithDiagnostics(report.file, report.lines, outcome.report.findings),
        fuzz: outcome.report,
      };
    }
  });
  return { files, seed: options.fuzz.seed ?? (await loadFuzzer()).DEFAULT_SEED };
}
