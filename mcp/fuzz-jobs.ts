// Where `stratum_fuzz` jobs run: never on the server's event loop, which every other call needs.
// Each job is a worker thread (dist/fuzz-worker.cjs) that is terminated at the job's deadline —
// its time budget plus a short grace — whatever it is doing, so a spec whose check or exploration
// would outlast the budget cannot hold the server; it then answers `deadline_exceeded` with what
// the job's last progress report says was explored. At most MAX_FUZZ_JOBS run at once: a call
// past the cap is answered `fuzz_busy` at once (a queue would make the caller wait for budgets it
// does not know of). From the sources (tests), where there is no worker bundle to start, the same
// job runs in this thread: same answers, no termination.
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Response } from "../interpreter/index";
import { PyDict, type PyValue, parseJson } from "../stdlib/index";
import { type FromFuzzJob, type FuzzJobProgress, type FuzzJobRequest, runFuzzJob } from "./fuzz-job";

declare const STRATUMC_BUNDLED: boolean | undefined;

/** Fuzz jobs running at once, at most (each keeps one core busy for its budget). */
export const MAX_FUZZ_JOBS = 2;
/**
 * How long past its budget a job may take to finish its report before it is terminated: the
 * answer then comes within the budget + 1 s, the trip included.
 */
export const FUZZ_GRACE_MS = 800;

/** A started job: its messages, and a way to stop it at once. */
export interface FuzzJobHandle {
  onMessage(listener: (message: FromFuzzJob) => void): void;
  /** The job ended without an answer (the worker failed): `reason` says how. */
  onFailure(listener: (reason: string) => void): void;
  terminate(): void;
}

export type FuzzJobStarter = (request: FuzzJobRequest) => FuzzJobHandle;

export interface FuzzCall {
  readonly spec: string;
  readonly flow: string | null;
  readonly runs: number;
  readonly seed: number;
  readonly timeBudgetMs: number;
}

export class FuzzJobs {
  private readonly running = new Set<{ stop(): void }>();

  constructor(
    private readonly start: FuzzJobStarter = defaultStarter(),
    private readonly limit = MAX_FUZZ_JOBS,
    private readonly graceMs = FUZZ_GRACE_MS,
  ) {}

  /** Runs the job within its deadline; its answer (never a rejection). */
  run(call: FuzzCall): Promise<Response> {
    if (this.running.size >= this.limit) {
      return Promise.resolve({
        status: "error",
        error_type: "fuzz_busy",
        message: `${this.limit} fuzz jobs are running on this server (the most it runs at once); call stratum_fuzz again when one of them has answered.`,
      });
    }
    const startedAt = Date.now();
    let handle: FuzzJobHandle;
    try {
      handle = this.start({
        spec: call.spec,
        flow: call.flow,
        runs: call.runs,
        seed: call.seed,
        deadlineAt: startedAt + call.timeBudgetMs,
      });
    } catch (e) {
      return Promise.resolve(failedAnswer(e instanceof Error ? e.message : String(e)));
    }
    return new Promise<Response>((resolve) => {
      let last: FuzzJobProgress | null = null;
      const finish = (response: Response): void => {
        clearTimeout(timer);
        this.running.delete(job);
        handle.terminate();
        resolve(response);
      };
      const job = {
        stop: () => finish(stoppedAnswer(call, last, Date.now() - startedAt, "the server is shutting down")),
      };
      this.running.add(job);
      const timer = setTimeout(
        () => finish(stoppedAnswer(call, last, Date.now() - startedAt, null)),
        call.timeBudgetMs + this.graceMs,
      );
      handle.onMessage((message) => {
        if (message.kind === "progress") last = message;
        else finish(decodeAnswer(message.response));
      });
      handle.onFailure((reason) => finish(failedAnswer(reason)));
    });
  }

  /** Stops every running job (the server is stopping): each call is answered at once. */
  shutdown(): void {
    for (const job of [...this.running]) job.stop();
  }
}

/** The answer of a job stopped before it answered: what its last progress report says it explored. */
function stoppedAnswer(
  call: FuzzCall,
  last: FuzzJobProgress | null,
  elapsedMs: number,
  shutdown: string | null,
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
    shutdown ??
    `stopped by the deadline (time_budget_ms ${call.timeBudgetMs} + ${elapsedMs - call.timeBudgetMs} ms)`;
  return {
    status: "deadline_exceeded",
    message: `${why} ${where}: ${runs} run(s) and ${paths} path(s) explored. An unfinished exploration gives no verdict and no finding; call again with a larger time_budget_ms, fewer runs, or one flow.`,
    time_budget_ms: call.timeBudgetMs,
    runs,
    paths,
    flows_done: fuzzing?.flowsDone ?? 0,
    flows: fuzzing?.flows ?? null,
    flow: fuzzing?.flow ?? null,
  };
}

function failedAnswer(reason: string): Response {
  return { status: "error", error_type: "internal_error", message: `the fuzz job failed: ${reason}` };
}

/** The job's answer, from its JSON text (kinds kept: a float stays a float). */
function decodeAnswer(text: string): Response {
  const value = parseJson(text);
  if (!(value instanceof PyDict)) throw new Error("a fuzz job answered something other than an object");
  const out: Record<string, PyValue> = {};
  for (const [key, v] of value.entries.values()) out[String(key)] = v;
  return out;
}

/** Worker threads on dist/fuzz-worker.cjs in the shipped server; this thread from the sources. */
function defaultStarter(): FuzzJobStarter {
  const bundled = typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED;
  return bundled
    ? workerStarter(fileURLToPath(new URL("./fuzz-worker.cjs", import.meta.url)))
    : inThreadStarter;
}

/** Each job a worker thread running `script`. */
export function workerStarter(script: string): FuzzJobStarter {
  return (request) => {
    // Its standard output must never reach the protocol stream (the server's stdout).
    const worker = new Worker(script, { stdout: true });
    worker.stdout.pipe(process.stderr);
    worker.unref();
    let ended = false;
    const failures: ((reason: string) => void)[] = [];
    const fail = (reason: string) => {
      if (ended) return;
      ended = true;
      for (const f of failures) f(reason);
    };
    worker.on("error", (e) => fail(e.message));
    worker.on("exit", (code) => fail(`the worker exited (code ${code}) without an answer`));
    worker.postMessage(request);
    return {
      onMessage: (listener) =>
        worker.on("message", (m: FromFuzzJob) => {
          if (m.kind === "done") ended = true;
          listener(m);
        }),
      onFailure: (listener) => failures.push(listener),
      terminate: () => {
        ended = true;
        void worker.terminate();
      },
    };
  };
}

/** The job in this thread (no bundle to start a worker on): it cannot be stopped, only ignored. */
export const inThreadStarter: FuzzJobStarter = (request) => {
  const listeners: ((m: FromFuzzJob) => void)[] = [];
  const failures: ((reason: string) => void)[] = [];
  let stopped = false;
  // Started on a later turn, so that the caller has added its listeners.
  setImmediate(() => {
    runFuzzJob(request, (m) => {
      if (!stopped) for (const l of listeners) l(m);
    }).catch((e: unknown) => {
      if (!stopped) for (const f of failures) f(e instanceof Error ? e.message : String(e));
    });
  });
  return {
    onMessage: (listener) => listeners.push(listener),
    onFailure: (listener) => failures.push(listener),
    terminate: () => {
      stopped = true;
    },
  };
};
