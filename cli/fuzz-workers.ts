// Fuzzes many specs at once for `stratumc fuzz` and `check --deep`: `jobs` lanes, each a worker
// thread on dist/fuzz-spec-worker.cjs that takes the next spec in input order when it is done with
// one. Each spec is fuzzed on its own (a fresh engine, the same seed), so its report does not
// depend on which lane fuzzed it or when: the outcomes come back in input order, and the output is
// the same bytes for any --jobs. One lane (--jobs 1, or a single spec) fuzzes in this thread, as
// does a run from the sources (tests), where there is no worker bundle.
//
// The time budget is the whole command's: when a lane starts a spec, the spec's share is what is
// left of the budget divided by the rounds still to come (the specs not started, over the lanes),
// so time a spec does not use passes on to the next ones. A spec whose worker crashes, or (under a
// budget) does not answer within HANG_GRACE_MS of its share, is reported at the spec
// (FUZZ-WORKER-FAILED), the worker is replaced, and the other specs are fuzzed as usual.
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { type CheckResult, type Diagnostic, FUZZ_WORKER_FAILED } from "../checker/index";
import type { FuzzProgress, FuzzReport } from "../fuzzer/index";
import type { FromSpecJob, SpecJobOptions, SpecJobRequest } from "./fuzz-spec-job";
import { loadFuzzer } from "./fuzzer-loader";

declare const STRATUMC_BUNDLED: boolean | undefined;

export type SpecOutcome =
  | { readonly kind: "fuzzed"; readonly report: FuzzReport | null }
  | { readonly kind: "unknown-flow"; readonly message: string }
  | { readonly kind: "failed"; readonly diagnostic: Diagnostic };

export interface FuzzSpecsOptions {
  /** Lanes at most; null: one fewer than the cores Node may use (defaultJobs). */
  readonly jobs: number | null;
  readonly fuzz: SpecJobOptions;
  /** The end of the whole command's time budget (Date.now time); none without a budget. */
  readonly deadlineAt?: number;
  /** A lane starts spec `index` (of the array given). */
  readonly onStart?: (index: number) => void;
  readonly onProgress?: (index: number, p: FuzzProgress) => void;
  /** The worker script; default: dist/fuzz-spec-worker.cjs in the shipped CLI, none (this thread) from the sources. */
  readonly script?: string | null;
}

/** How long past its share of the budget a spec's worker may take before it is reported as hung. */
export const HANG_GRACE_MS = 2000;

export async function fuzzSpecs(specs: readonly CheckResult[], o: FuzzSpecsOptions): Promise<SpecOutcome[]> {
  const outcomes: SpecOutcome[] = new Array(specs.length);
  const script = o.script === undefined ? bundledScript() : o.script;
  const lanes = Math.max(1, Math.min(o.jobs ?? defaultJobs(), specs.length));
  let next = 0;
  const take = (): number | null => (next < specs.length ? next++ : null);
  const deadlineOf = (index: number): number | undefined =>
    o.deadlineAt === undefined
      ? undefined
      : shareDeadline(o.deadlineAt, Date.now(), specs.length - index, lanes);
  if (script === null || lanes === 1) {
    const fuzzer = await loadFuzzer();
    for (let i = take(); i !== null; i = take()) {
      const index = i;
      o.onStart?.(index);
      const deadlineAt = deadlineOf(index);
      const spec = specs[index] as CheckResult;
      try {
        const { report } = await fuzzer.fuzzChecked(spec, {
          ...o.fuzz,
          ...(deadlineAt === undefined ? {} : { deadlineAt }),
          ...(o.onProgress === undefined
            ? {}
            : { onProgress: (p: FuzzProgress) => o.onProgress?.(index, p) }),
        });
        outcomes[index] = { kind: "fuzzed", report };
      } catch (e) {
        outcomes[index] =
          e instanceof fuzzer.UnknownFlowError
            ? { kind: "unknown-flow", message: e.message }
            : failed(`the fuzzer failed: ${reasonOf(e)}`);
      }
    }
    return outcomes;
  }
  // node:worker_threads is loaded here, when a worker is needed, never while a startup snapshot is
  // built (the snapshots' warm-up fuzzes): node 20 keeps state of that module in the snapshot that
  // a process started from it cannot use, and every worker it starts then crashes at once. It is
  // required, not imported: a process started from a snapshot has no dynamic import.
  const { Worker: WorkerThread } = createRequire(import.meta.url)(
    "node:worker_threads",
  ) as typeof import("node:worker_threads");
  const lane = async (workerScript: string): Promise<void> => {
    let worker: Worker | null = null;
    try {
      for (let i = take(); i !== null; i = take()) {
        o.onStart?.(i);
        const deadlineAt = deadlineOf(i);
        const request: SpecJobRequest = {
          id: i,
          text: (specs[i] as CheckResult).source.text,
          options: { ...o.fuzz, ...(deadlineAt === undefined ? {} : { deadlineAt }) },
          progress: o.onProgress !== undefined,
        };
        worker ??= new WorkerThread(workerScript);
        const outcome = await runOn(worker, request, deadlineAt, o.onProgress);
        if (outcome.kind === "failed") {
          void worker.terminate();
          worker = null;
        }
        outcomes[i] = outcome;
      }
    } finally {
      if (worker !== null) await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: lanes }, () => lane(script)));
  return outcomes;
}

/**
 * The deadline of a spec started at `now` with `notStarted` specs (itself included) still to go
 * over `lanes`: what is left of the budget over the rounds to come, so the last round gets it all.
 */
export function shareDeadline(deadlineAt: number, now: number, notStarted: number, lanes: number): number {
  const rounds = Math.max(1, Math.ceil(notStarted / lanes));
  return now + Math.max(0, deadlineAt - now) / rounds;
}

/** Sends one spec to a worker; its outcome, whatever becomes of the worker. */
function runOn(
  worker: Worker,
  request: SpecJobRequest,
  deadlineAt: number | undefined,
  onProgress: FuzzSpecsOptions["onProgress"],
): Promise<SpecOutcome> {
  return new Promise<SpecOutcome>((resolve) => {
    const finish = (outcome: SpecOutcome): void => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      resolve(outcome);
    };
    const onMessage = (m: FromSpecJob): void => {
      if (m.id !== request.id) return;
      if (m.kind === "progress") onProgress?.(request.id, m.progress);
      else if (m.kind === "unknown-flow") finish({ kind: "unknown-flow", message: m.message });
      else finish({ kind: "fuzzed", report: m.report === null ? null : restored(m.report) });
    };
    const onError = (e: Error): void => finish(failed(`its worker crashed: ${reasonOf(e)}`));
    const onExit = (code: number): void =>
      finish(failed(`its worker exited (code ${code}) without a report`));
    const timer =
      deadlineAt === undefined
        ? undefined
        : setTimeout(
            () => finish(failed(`it did not answer within ${HANG_GRACE_MS / 1000} s of its time budget`)),
            Math.max(0, deadlineAt - Date.now()) + HANG_GRACE_MS,
          );
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(request);
  });
}

/** Flow and property names are user text: their tables get back the null prototype the clone dropped. */
function restored(report: FuzzReport): FuzzReport {
  return {
    ...report,
    soundness: Object.assign(Object.create(null), report.soundness),
    properties: Object.assign(Object.create(null), report.properties),
  };
}

function failed(reason: string): SpecOutcome {
  return {
    kind: "failed",
    diagnostic: {
      success: false,
      error_type: FUZZ_WORKER_FAILED.errorType,
      path: "",
      message: FUZZ_WORKER_FAILED.message(reason),
      code: FUZZ_WORKER_FAILED.code,
      severity: "error",
      line: 1,
      column: 1,
      end_line: 1,
      end_column: 1,
    },
  };
}

/** The first line of an error's message: never its stack. */
function reasonOf(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split("\n")[0] ?? text;
}

function bundledScript(): string | null {
  const bundled = typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED;
  return bundled ? fileURLToPath(new URL("./fuzz-spec-worker.cjs", import.meta.url)) : null;
}

/**
 * One core fewer than Node may use: a single fuzzing thread already keeps about one and a half
 * cores busy (V8's concurrent garbage collection on the allocation-heavy runs), so on two cores
 * a second lane only contends (docs/guides/fuzzing.md, "On every core").
 */
function defaultJobs(): number {
  return Math.max(1, availableParallelism() - 1);
}
