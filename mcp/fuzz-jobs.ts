// Where `stratum_fuzz` jobs run: never on the server's event loop, which every other call needs.
// Each job is a worker thread (worker-jobs.ts) that is terminated at the job's deadline — its time
// budget plus a short grace — whatever it is doing, so a spec whose check or exploration would
// outlast the budget cannot hold the server; it then answers `deadline_exceeded` with what the
// job's last progress report says was explored. At most MAX_FUZZ_JOBS run at once: a call past the
// cap is answered `fuzz_busy` at once (a queue would make the caller wait for budgets it does not
// know of). The caller may follow the job's progress and cancel it: the worker is then terminated at
// once and the answer says what was explored.
import type { Response } from "../interpreter/index";
import type { FuzzJobProgress, FuzzJobRequest } from "./fuzz-job";
import { defaultStarter, type JobHandle, JobPool, type JobStarter, type StopReason } from "./worker-jobs";

export { inThreadStarter } from "./worker-jobs";

/** Fuzz jobs running at once, at most (each keeps one core busy for its budget). */
const MAX_FUZZ_JOBS = 2;
/**
 * How long past its budget a job may take to finish its report before it is terminated: the
 * answer then comes within the budget + 1 s, the trip included.
 */
const FUZZ_GRACE_MS = 800;

export type FuzzJobHandle = JobHandle;
export type FuzzJobStarter = JobStarter<FuzzJobRequest>;

export interface FuzzCall {
  readonly spec: string;
  readonly flow: string | null;
  readonly runs: number;
  readonly seed: number;
  readonly timeBudgetMs: number;
}

/** What the caller of one job may add: its progress, and a signal that cancels it. */
export interface FuzzCallOptions {
  readonly onProgress?: (progress: FuzzJobProgress) => void;
  readonly signal?: AbortSignal;
}

export class FuzzJobs {
  private readonly pool: JobPool<FuzzJobRequest>;

  constructor(
    start: FuzzJobStarter = defaultStarter(),
    limit = MAX_FUZZ_JOBS,
    private readonly graceMs = FUZZ_GRACE_MS,
  ) {
    this.pool = new JobPool(start, limit, "the fuzz job failed");
  }

  /** Runs the job within its deadline; its answer (never a rejection). */
  run(call: FuzzCall, options: FuzzCallOptions = {}): Promise<Response> {
    const startedAt = Date.now();
    let last: FuzzJobProgress | null = null;
    const request: FuzzJobRequest = {
      kind: "fuzz",
      spec: call.spec,
      flow: call.flow,
      runs: call.runs,
      seed: call.seed,
      deadlineAt: startedAt + call.timeBudgetMs,
    };
    return this.pool.run(request, {
      deadlineMs: call.timeBudgetMs + this.graceMs,
      busy: (limit) => ({
        status: "error",
        error_type: "fuzz_busy",
        message: `${limit} fuzz jobs are running on this server (the most it runs at once); call stratum_fuzz again when one of them has answered.`,
      }),
      onMessage: (message) => {
        last = message;
        options.onProgress?.(message);
      },
      stopped: (why) => stoppedAnswer(call, last, Date.now() - startedAt, why),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  }

  /** Stops every running job (the server is stopping): each call is answered at once. */
  shutdown(): void {
    this.pool.shutdown();
  }
}

/** The answer of a job stopped before it answered: what its last progress report says it explored. */
function stoppedAnswer(
  call: FuzzCall,
  last: FuzzJobProgress | null,
  elapsedMs: number,
  reason: StopReason,
): Response {
  const fuzzing = last !== null && last.phase === "fuzzing" ? last : null;
  const runs = fuzzing?.runs ?? 0;
  const paths = fuzzing?.paths ?? 0;
  let where: string;
  if (fuzzing === null) where = last === null ? "while starting" : "while checking the spec";
  else if (fuzzing.flow === null) where = `while finishing the report of ${fuzzing.flows} flow(s)`;
  else {
    where = `while exploring flow '${fuzzing.flow}' (${fuzzing.flowsDone} of ${fuzzing.flows} flow(s) done)`;
  }
  const why =
    reason === "shutdown"
      ? "the server is shutting down"
      : reason === "cancelled"
        ? `cancelled by the client after ${elapsedMs} ms`
        : `stopped by the deadline (time_budget_ms ${call.timeBudgetMs} + ${elapsedMs - call.timeBudgetMs} ms)`;
  const advice =
    reason === "cancelled" ? "" : "; call again with a larger time_budget_ms, fewer runs, or one flow";
  return {
    status: reason === "cancelled" ? "cancelled" : "deadline_exceeded",
    message: `${why} ${where}: ${runs} run(s) and ${paths} path(s) explored. An unfinished exploration gives no verdict and no finding${advice}.`,
    time_budget_ms: call.timeBudgetMs,
    runs,
    paths,
    flows_done: fuzzing?.flowsDone ?? 0,
    flows: fuzzing?.flows ?? null,
    flow: fuzzing?.flow ?? null,
  };
}
