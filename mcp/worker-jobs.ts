// Worker-thread jobs of the MCP server: work that could hold the server's only event loop (a fuzz,
// the check of a big spec) runs as a worker thread on dist/fuzz-worker.cjs, one thread per job, and
// is terminated at its deadline whatever it is doing. A JobPool is one kind's cap: a job past it is
// refused at once (a queue would make the caller wait for work it does not know of). From the
// sources (tests), where there is no worker bundle to start, the same job runs in this thread: same
// answers, no termination.
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Response } from "../interpreter/index";
import { PyDict, type PyValue, parseJson } from "../stdlib/index";
import { type CheckJobRequest, runCheckJob } from "./check-job";
import { type FromFuzzJob, type FuzzJobRequest, runFuzzJob } from "./fuzz-job";

declare const STRATUMC_BUNDLED: boolean | undefined;

/** What a worker is asked to do: one job of one kind. */
export type JobRequest = FuzzJobRequest | CheckJobRequest;

/** What a job posts: progress (fuzz jobs only), then its answer as JSON text. */
export type FromJob = FromFuzzJob;

/** A started job: its messages, and a way to stop it at once. */
export interface JobHandle {
  onMessage(listener: (message: FromJob) => void): void;
  /** The job ended without an answer (the worker failed): `reason` says how. */
  onFailure(listener: (reason: string) => void): void;
  terminate(): void;
}

export type JobStarter<R extends JobRequest = JobRequest> = (request: R) => JobHandle;

/** How one job of a pool is answered when it does not answer by itself. */
export interface JobHooks {
  /** Milliseconds from now until the job is terminated. */
  readonly deadlineMs: number;
  /** The answer when the pool is full (nothing is started). */
  busy(limit: number): Response;
  /** Every message before the answer (a fuzz job's progress). */
  onMessage?(message: Exclude<FromJob, { kind: "done" }>): void;
  /**
   * The answer of a job stopped at its deadline, because the server is stopping (`shutdown`), or
   * because its caller gave up on it (`cancelled`: `signal` aborted).
   */
  stopped(why: StopReason): Response;
  /** The caller's signal: aborting it terminates the job at once. */
  readonly signal?: AbortSignal;
}

export type StopReason = "deadline" | "shutdown" | "cancelled";

/** The running jobs of one kind, at most `limit` at once. */
export class JobPool<R extends JobRequest> {
  private readonly running = new Set<{ stop(): void }>();

  constructor(
    private readonly start: JobStarter<R>,
    readonly limit: number,
    private readonly failurePrefix: string,
  ) {}

  /** Runs the job within its deadline; its answer (never a rejection). */
  run(request: R, hooks: JobHooks): Promise<Response> {
    if (hooks.signal?.aborted === true) return Promise.resolve(hooks.stopped("cancelled"));
    if (this.running.size >= this.limit) return Promise.resolve(hooks.busy(this.limit));
    let handle: JobHandle;
    try {
      handle = this.start(request);
    } catch (e) {
      return Promise.resolve(this.failed(e instanceof Error ? e.message : String(e)));
    }
    return new Promise<Response>((resolve) => {
      const cancel = (): void => finish(hooks.stopped("cancelled"));
      const finish = (response: Response): void => {
        clearTimeout(timer);
        hooks.signal?.removeEventListener("abort", cancel);
        if (!this.running.delete(job)) return;
        handle.terminate();
        resolve(response);
      };
      const job = { stop: () => finish(hooks.stopped("shutdown")) };
      this.running.add(job);
      const timer = setTimeout(() => finish(hooks.stopped("deadline")), hooks.deadlineMs);
      handle.onMessage((message) => {
        if (message.kind === "done") finish(decodeAnswer(message.response));
        else hooks.onMessage?.(message);
      });
      handle.onFailure((reason) => finish(this.failed(reason)));
      hooks.signal?.addEventListener("abort", cancel, { once: true });
    });
  }

  /** Stops every running job (the server is stopping): each call is answered at once. */
  shutdown(): void {
    for (const job of [...this.running]) job.stop();
  }

  private failed(reason: string): Response {
    return { status: "error", error_type: "internal_error", message: `${this.failurePrefix}: ${reason}` };
  }
}

/** The job's answer, from its JSON text (kinds kept: a float stays a float). */
function decodeAnswer(text: string): Response {
  const value = parseJson(text);
  if (!(value instanceof PyDict)) throw new Error("a worker job answered something other than an object");
  const out: Record<string, PyValue> = {};
  for (const [key, v] of value.entries.values()) out[String(key)] = v;
  return out;
}

/** Worker threads on dist/fuzz-worker.cjs in the shipped server; this thread from the sources. */
export function defaultStarter(): JobStarter {
  const bundled = typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED;
  return bundled
    ? workerStarter(fileURLToPath(new URL("./fuzz-worker.cjs", import.meta.url)))
    : inThreadStarter;
}

/** Each job a worker thread running `script`. */
export function workerStarter(script: string): JobStarter {
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
        worker.on("message", (m: FromJob) => {
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

/** Runs one job of any kind, posting its messages (the worker's entry and the in-thread starter). */
export function runJob(request: JobRequest, post: (message: FromJob) => void): Promise<void> {
  return request.kind === "check" ? runCheckJob(request, post) : runFuzzJob(request, post);
}

/** The job in this thread (no bundle to start a worker on): it cannot be stopped, only ignored. */
export const inThreadStarter: JobStarter = (request) => {
  const listeners: ((m: FromJob) => void)[] = [];
  const failures: ((reason: string) => void)[] = [];
  let stopped = false;
  // Started on a later turn, so that the caller has added its listeners.
  setImmediate(() => {
    runJob(request, (m) => {
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
