// Server-side parallel dispatch in the engine: stratum_parallel_start as a call that, once it has
// committed the seeded task entries, starts an executor (parallel-executor.ts) over the injected
// agent runner; the executors of this process, by flow and step; and the executor's writes as
// internal calls on the engine's queue. With an owner registry (parallel-owners.ts) it also records
// which process runs a flow's executor, marks the entries a dead server left unsettled as
// interrupted before start, poll and advance read them, and ends every executor at shutdown.
import type { StepArgs } from "../api";
import { currentStep } from "../flow/current";
import { executorPlanOf } from "../flow/executor-plan";
import { parallelStart, type StartedTask, startTasks } from "../flow/parallel-start";
import { type EntryUpdate, writeTaskEntries } from "../flow/parallel-tasks";
import { resolvePreMergeVerify } from "../flow/pre-merge-verify";
import type { Tx } from "../flow/tx";
import type { Response } from "../wire/wire";
import type { EngineOptions } from "./options";
import { type EntryWrite, type ExecutorJob, ParallelExecutor } from "./parallel-executor";
import { hasUnsettledEntries, markInterrupted, RESTART_INTERRUPTED } from "./parallel-owners";

/** Runs a function as a transaction on one flow (not queued: the caller queues). */
type Transact = (flowId: string, fn: (tx: Tx) => Response) => Promise<Response>;
type Enqueue = <T>(fn: () => Promise<T>) => Promise<T>;

const WRITTEN: Response = { status: "ok" };
const BUDGET_STOPPED: Response = { status: "ok", budget_stopped: true };
const REFUSED: Response = { status: "error", error_type: "parallel_tasks_changed", message: "" };
const UNCHANGED: Response = { status: "error", error_type: "nothing_interrupted", message: "" };

/** The error of the tasks a server ending ends (docs/reference/runtime.md §23.11). */
const SHUTDOWN_INTERRUPTED = "server shutdown interrupted task";
/** How long shutdown lets interrupted runners settle (kill the agent, capture the diff, remove the worktree). */
const SHUTDOWN_GRACE_MS = 8_000;
/** Tries of an executor's write that meets another process's commit or lock. */
const WRITE_ATTEMPTS = 5;
const WRITE_RETRY_MS = 50;

function defaultTimer(ms: number, fn: () => void): () => void {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
}

export function parallelDispatch(options: EngineOptions, transact: Transact, enqueue: Enqueue) {
  const running = new Map<string, { executor: ParallelExecutor; done: Promise<void> }>();
  const key = (flowId: string, stepId: string) => `${flowId}\u0000${stepId}`;
  const runner = options.parallelRunner;
  const owners = options.parallelOwners;
  const timer = options.parallelTimer ?? defaultTimer;
  const runsFlow = (flowId: string) => [...running.keys()].some((k) => k.startsWith(`${flowId}\u0000`));

  /**
   * An executor's write as a call of its own. A conflict with another process's commit is tried
   * again a few times; a store that refuses the entries (full, read-only, a flow past the file's
   * limits) is `failed` with its message, for the executor to fail the task with.
   */
  const write = async (flowId: string, updates: readonly EntryUpdate[]): Promise<EntryWrite> => {
    for (let attempt = 1; ; attempt++) {
      const r = await enqueue(() =>
        transact(flowId, (tx) => {
          const run = tx.edit(flowId);
          if (run === null || !writeTaskEntries(run, updates)) return REFUSED;
          return run.state.terminal_status === "budget_exhausted" ? BUDGET_STOPPED : WRITTEN;
        }),
      );
      if (r.status === "ok") return r.budget_stopped === true ? "budget_stopped" : "written";
      if (r.error_type === REFUSED.error_type || r.error_type === "flow_not_found") return "lost";
      const retry = r.error_type === "stale_state" || r.error_type === "state_locked";
      if (!retry || attempt >= WRITE_ATTEMPTS) {
        return {
          failed: typeof r.message === "string" && r.message !== "" ? r.message : String(r.error_type),
        };
      }
      await new Promise<void>((resolve) => timer(WRITE_RETRY_MS * attempt, resolve));
    }
  };

  /**
   * Before a parallel tool reads a flow's entries (on the queue): when no executor of this process
   * runs the flow and the owner record names a process that is gone (or this one), its unsettled
   * entries become `failed` with RESTART_INTERRUPTED and the record goes.
   */
  async function recover(flowId: string): Promise<void> {
    if (owners === undefined || runsFlow(flowId)) return;
    const state = owners.state(flowId);
    if (state !== "gone" && state !== "self") return;
    const r = await transact(flowId, (tx) => {
      const run = tx.read(flowId);
      if (run === null || !hasUnsettledEntries(run)) return UNCHANGED;
      const edited = tx.edit(flowId);
      if (edited === null) return UNCHANGED;
      markInterrupted(edited, RESTART_INTERRUPTED, options.clock.wallMs() / 1000);
      return WRITTEN;
    });
    // Not marked because the store failed: the record stays, so the next call tries again.
    if (r.status === "ok" || r.error_type === "nothing_interrupted") {
      if (state === "gone") owners.clearGone(flowId);
      else owners.release(flowId);
    }
  }

  /** An owner record that cannot be written does not stop the dispatch (only restarts lose). */
  function claim(flowId: string): boolean {
    try {
      return owners?.claim(flowId) ?? true;
    } catch (e) {
      options.logError?.(`parallel executor owner record: ${e instanceof Error ? e.message : String(e)}`);
      return true;
    }
  }

  /** stratum_parallel_start; call it on the queue. */
  async function start(args: StepArgs): Promise<Response> {
    const id = key(args.flow_id, args.step_id);
    await recover(args.flow_id);
    // Another live process runs (or is about to run) this flow's executor: already_started.
    const claimed =
      runner === undefined || owners === undefined || runsFlow(args.flow_id) || claim(args.flow_id);
    let job: ExecutorJob | null = null;
    const response = await transact(args.flow_id, (tx) => {
      const r = parallelStart(tx, args, {
        runnerAvailable: runner !== undefined,
        executorRegistered: running.has(id) || !claimed,
      });
      if (r.status === "started") job = jobOf(tx, args);
      return r;
    });
    const started = response.status === "started" && job !== null && runner !== undefined;
    if (!started) {
      if (claimed && owners !== undefined && runner !== undefined && !runsFlow(args.flow_id))
        owners.release(args.flow_id);
      return response;
    }
    const executor = new ParallelExecutor(
      {
        clock: options.clock,
        runner,
        write,
        after: timer,
        ...(options.parallelMaxAgents === undefined ? {} : { maxAgents: options.parallelMaxAgents }),
        ...(options.logError === undefined ? {} : { log: options.logError }),
      },
      job!,
    );
    const done = executor
      .run()
      .catch((e: unknown) =>
        options.logError?.(`parallel executor: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
      )
      .finally(() => {
        running.delete(id);
        if (!runsFlow(args.flow_id)) owners?.release(args.flow_id);
      });
    running.set(id, { executor, done });
    return response;
  }

  /**
   * The server is ending: every executor's agents are interrupted and their unsettled tasks end
   * `failed` with SHUTDOWN_INTERRUPTED; runners get `graceMs` to settle, then what remains is
   * recorded as failed without them. Resolves when the entries are written (or cannot be).
   */
  async function shutdown(graceMs: number = SHUTDOWN_GRACE_MS): Promise<void> {
    const all = [...running.values()];
    if (all.length === 0) return;
    for (const r of all) r.executor.shutdown(SHUTDOWN_INTERRUPTED);
    let cancelTimer = (): void => undefined;
    const grace = new Promise<void>((resolve) => {
      cancelTimer = timer(graceMs, resolve);
    });
    await Promise.race([Promise.all(all.map((r) => r.done)), grace]);
    cancelTimer();
    const left = [...running.entries()];
    await Promise.all(left.map(([, r]) => r.executor.forceFail()));
    for (const [k] of left) {
      running.delete(k);
      const flowId = k.slice(0, k.indexOf("\u0000"));
      if (!runsFlow(flowId)) owners?.release(flowId);
    }
  }

  /** A race has its winner: the executor cancels the candidates still pending or running. */
  function cancelRest(flowId: string, stepId: string): void {
    running.get(key(flowId, stepId))?.executor.cancelRemaining();
  }

  return {
    start,
    recover,
    shutdown,
    cancelRest,
    /** Resolves when every executor started so far has finished. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}

function jobOf(tx: Tx, args: StepArgs): ExecutorJob | null {
  const run = tx.read(args.flow_id);
  const step = run === null ? null : currentStep(run);
  if (run === null || step === null) return null;
  const tasks = startTasks(run, step);
  if (!Array.isArray(tasks)) return null;
  // Resolved now, from the flow as start saw it, as the reference does; only a worktree has a
  // tree to verify.
  const worktree = executorPlanOf(step, tasks as StartedTask[]).isolation === "worktree";
  return {
    flowId: args.flow_id,
    step,
    tasks: tasks as StartedTask[],
    cwd: run.state.cwd,
    preMergeVerify: worktree ? resolvePreMergeVerify(run, step) : [],
  };
}
