// `--jobs <n>` of `fuzz` and `check --deep`: how many specs are fuzzed at once, each on a worker
// thread (cli/fuzz-workers.ts). Null when not given: the pool then takes one core fewer than Node
// may use (os.availableParallelism), found only when fuzzing starts.
import { UsageError } from "./exit-codes";

export const JOBS_HELP = "specs fuzzed at once, each on a worker thread (default: the cores less one)";

export function parseJobs(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--jobs: expected a whole number >= 1, got '${text}'`);
  return n;
}
