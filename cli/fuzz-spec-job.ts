// One spec as a worker of `stratumc fuzz` / `check --deep` fuzzes it (cli/fuzz-spec-worker.ts; the
// pool is cli/fuzz-workers.ts): check the text again (a checked spec cannot cross the thread
// boundary, its text can), fuzz it, post progress on the way and the report at the end. The report
// is plain data (findings, verdicts, counterexamples of JSON values), so it crosses as it is.
import type { FuzzOptions, FuzzProgress, FuzzReport } from "../fuzzer/index";
import { loadFuzzer } from "./fuzzer-loader";

/** The options a worker can be given: no callbacks, and a deadline rather than a duration. */
export type SpecJobOptions = Omit<FuzzOptions, "now" | "onProgress" | "timeBudgetMs">;

export interface SpecJobRequest {
  readonly id: number;
  readonly text: string;
  readonly options: SpecJobOptions;
  /** Post progress (only when a terminal shows it). */
  readonly progress: boolean;
}

export type FromSpecJob =
  | { readonly kind: "progress"; readonly id: number; readonly progress: FuzzProgress }
  | { readonly kind: "done"; readonly id: number; readonly report: FuzzReport | null }
  | { readonly kind: "unknown-flow"; readonly id: number; readonly message: string };

export async function runSpecJob(
  request: SpecJobRequest,
  post: (message: FromSpecJob) => void,
): Promise<void> {
  const fuzzer = await loadFuzzer();
  const { id } = request;
  try {
    const { report } = await fuzzer.fuzzSpec(request.text, {
      ...request.options,
      ...(request.progress
        ? { onProgress: (progress: FuzzProgress) => post({ kind: "progress", id, progress }) }
        : {}),
    });
    post({ kind: "done", id, report });
  } catch (e) {
    if (!(e instanceof fuzzer.UnknownFlowError)) throw e;
    post({ kind: "unknown-flow", id, message: e.message });
  }
}
