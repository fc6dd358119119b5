// The executor of server-side parallel dispatch (docs/reference/runtime.md §23.6): runs the tasks of one parallel step
// over the injected agent runner (flow/parallel-runner.ts) — each task after its `depends_on`
// tasks, at most `max_concurrent` at a time, each limited to `task_timeout` seconds — and records
// every state change of a task in the flow's `parallel_tasks` as a call of its own (a transaction
// on the engine's queue, committed like any tool call). When `require` can no longer be met, the
// tasks still pending or running are cancelled. A task whose dependency did not complete is
// cancelled. Per-task certificates follow the consumer rule (Claude agents only, B8). A plan with
// routing (a pipeline's, kinds/pipeline/routing.ts) also decides, once a task's dependencies have
// settled and before it takes a slot, whether it runs, is `skipped` (with a passthrough result,
// no agent, no dispatch charged) or is cancelled, and may fail a completed task (a bad fanout
// list); a `skipped` dependency does not cancel its dependants there.
//
// The executor owns its tasks' entries only while they are as it left them: when an update finds
// an entry gone or changed (the step was re-dispatched, which drops the entries, B2), the executor
// stops and cancels what it still runs.
//
// What a runner reports is untrusted data: a result past the limits of a tool argument
// (interpreter/limits.ts) fails its task with the reason before anything recursive touches it, and
// an entry the store refuses (a full disk, a flow grown past the file's limits) fails its task
// with the store's reason in an entry without the result, so every task settles and frees its
// slot.
//
// With `pre_merge_verify` (isolation worktree), the runner runs the step's commands in a task's
// worktree once its agent has succeeded and the result has passed the checks above; a failing
// command fails the task with a `gate_failed` bounce record on its entry (pre-merge-verify.ts).
import type { StepIR } from "../../checker/ir/types";
import { PyFloat, type PyValue } from "../../stdlib/values/value";
import { type Admission, type ExecutorPlan, executorPlanOf, type TaskView } from "../flow/executor-plan";
import type { ParallelAgentRunner, ParallelTaskOutcome, PreMergeGate } from "../flow/parallel-runner";
import type { StartedTask } from "../flow/parallel-start";
import { dependenciesOf } from "../flow/parallel-task-graph";
import { type EntryUpdate, pendingEntry, type TaskEntry, type TaskState } from "../flow/parallel-tasks";
import type { Clock } from "../flow/ports";
import { gateBounceValue, gateError } from "../flow/pre-merge-verify";
import { certificateViolations } from "../flow/reasoning";
import { valueLimitProblem } from "../limits";

/**
 * How a write of task entries went: committed (`budget_stopped`: and the flow's run budget
 * stopped it, so the other tasks are cancelled); refused because the executor no longer owns them
 * (an entry changed, the flow is gone); or failed for another reason (the store's message).
 */
export type EntryWrite = "written" | "budget_stopped" | "lost" | { readonly failed: string };

export interface ExecutorHost {
  readonly clock: Clock;
  readonly runner: ParallelAgentRunner;
  /**
   * Writes the entries (one committed call): `lost` when some entry is no longer in the expected
   * state (or the flow is gone), so the executor no longer owns the step's tasks; `failed` when
   * the store did not take them.
   */
  write(flowId: string, updates: readonly EntryUpdate[]): Promise<EntryWrite>;
  /** Timers (setTimeout in production): a timeout's callback, and how to cancel it. */
  readonly after: (ms: number, fn: () => void) => () => void;
  /** The most agents one step runs at once, whatever its `max_concurrent` says (default: no cap). */
  readonly maxAgents?: number;
  /** Where a task entry the store refused is told (the server's standard error). */
  readonly log?: (message: string) => void;
}

export interface ExecutorJob {
  readonly flowId: string;
  readonly step: StepIR;
  readonly tasks: readonly StartedTask[];
  /** The flow's working directory. */
  readonly cwd: string;
  /** The step's resolved `pre_merge_verify` commands (none: no gate). */
  readonly preMergeVerify?: readonly string[];
}

const TERMINAL: ReadonlySet<TaskState> = new Set(["complete", "failed", "cancelled", "skipped"]);

export class ParallelExecutor {
  private readonly entries = new Map<string, TaskEntry>();
  private readonly settled = new Map<string, Promise<TaskState>>();
  private readonly settle = new Map<string, (state: TaskState) => void>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly waiting: (() => void)[] = [];
  private free: number;
  private readonly plan: ExecutorPlan;
  private stopped = false;
  /** Set when a write reports that the flow's run budget stopped it. */
  private budgetStopped = false;
  /** Set by shutdown: every task not yet settled ends `failed` with this error. */
  private shutdownError: string | null = null;

  constructor(
    private readonly host: ExecutorHost,
    private readonly job: ExecutorJob,
  ) {
    this.plan = executorPlanOf(job.step, job.tasks);
    this.free = Math.min(this.plan.maxConcurrent, Math.max(1, host.maxAgents ?? Number.POSITIVE_INFINITY));
    for (const { id } of job.tasks) {
      this.entries.set(id, pendingEntry(id));
      this.settled.set(id, new Promise((resolve) => this.settle.set(id, resolve)));
    }
  }

  /** Runs every task to a terminal state (or until the executor loses its entries). */
  async run(): Promise<void> {
    await Promise.all(this.job.tasks.map((t) => this.runOne(t.id, t.task)));
  }

  /**
   * The server is ending: running agents are interrupted and every task not yet settled ends
   * `failed` with `error` — pending ones at once, running ones when their runner returns (with its
   * diff and worktree path), or at `forceFail`, whichever comes first.
   */
  shutdown(error: string): void {
    if (this.stopped || this.shutdownError !== null) return;
    this.shutdownError = error;
    for (const controller of this.controllers.values()) controller.abort();
    for (const [id, entry] of this.entries) {
      if (entry.state === "pending") void this.finish(id, { state: "failed", error });
    }
  }

  /** After shutdown's grace period: records the tasks whose runner has not returned as failed. */
  async forceFail(): Promise<void> {
    const error = this.shutdownError;
    if (error === null) return;
    const open = [...this.entries].filter(([, e]) => !TERMINAL.has(e.state)).map(([id]) => id);
    await Promise.all(open.map((id) => this.finish(id, { state: "failed", error })));
  }

  private now(): PyFloat {
    return new PyFloat(this.host.clock.wallMs() / 1000);
  }

  /** The tasks' states and results as this executor left them. */
  private readonly view: TaskView = (id) => this.entries.get(id);

  /**
   * Waits for the task's dependencies; false when one that did not complete cancelled it. A
   * pipeline's `skipped` stage lets its dependants go on, and its join waits for every lane.
   */
  private async dependenciesSettled(id: string, task: PyValue): Promise<boolean> {
    const routing = this.plan.routing;
    const waitsForAll = routing?.waitsForAll(task) ?? false;
    for (const dep of this.dependenciesOf(id)) {
      const state = await this.settled.get(dep);
      if (waitsForAll || state === "complete" || (routing !== undefined && state === "skipped")) continue;
      await this.finish(id, {
        state: "cancelled",
        error: `upstream task '${dep}' did not complete (state='${state}')`,
      });
      return false;
    }
    return true;
  }

  /** A pipeline stage skipped or cancelled before it takes a slot (true: it runs). */
  private async admitted(id: string, task: PyValue): Promise<boolean> {
    const routing = this.plan.routing;
    if (routing === undefined) return true;
    if (this.stopped || this.entries.get(id)?.state !== "pending") return false;
    let admission: Admission;
    try {
      admission = routing.admit(task, this.view);
    } catch (e) {
      // As in runOne: whatever went wrong, the task settles (failed, with the reason).
      const message = e instanceof Error ? e.message : String(e);
      this.host.log?.(`${this.where(id)}: ${e instanceof Error ? (e.stack ?? message) : message}`);
      await this.finish(id, { state: "failed", error: `executor error: ${message}` });
      return false;
    }
    if (admission.kind === "run") return true;
    if (admission.kind === "skip") await this.finish(id, { state: "skipped", result: admission.result });
    else await this.finish(id, { state: "cancelled", error: admission.error });
    return false;
  }

  private async runOne(id: string, task: PyValue): Promise<void> {
    if (!(await this.dependenciesSettled(id, task))) return;
    if (!(await this.admitted(id, task))) return;
    await this.acquire();
    try {
      if (this.stopped || this.entries.get(id)?.state !== "pending") return;
      // Before the write: a cancellation or shutdown during it aborts the agent at once.
      const controller = new AbortController();
      this.controllers.set(id, controller);
      const running: TaskEntry = { ...this.entries.get(id)!, state: "running", started_at: this.now() };
      const written = await this.write(id, "pending", running);
      if (written === null) return;
      if (written.state !== "running") {
        // The store refused the entry: the task ended failed without its agent.
        this.controllers.delete(id);
        this.settled_(id, written);
        return;
      }
      const outcome = await this.runAgent(id, task, controller);
      this.controllers.delete(id);
      await this.record(id, task, outcome, controller);
    } catch (e) {
      // Whatever went wrong in here, the task settles (failed, with the reason) and frees its slot.
      const message = e instanceof Error ? e.message : String(e);
      this.host.log?.(`${this.where(id)}: ${e instanceof Error ? (e.stack ?? message) : message}`);
      this.controllers.delete(id);
      await this.finish(id, { state: "failed", error: `executor error: ${message}` });
    } finally {
      this.release();
    }
  }

  /** A task named in a log line. */
  private where(id: string): string {
    return `parallel task '${id}' of step '${this.job.step.id}' in flow ${this.job.flowId}`;
  }

  private dependenciesOf(id: string): string[] {
    const found = this.job.tasks.find((t) => t.id === id);
    return found === undefined ? [] : dependenciesOf(found.task);
  }

  private async runAgent(
    id: string,
    task: PyValue,
    controller: AbortController,
  ): Promise<ParallelTaskOutcome | "timeout"> {
    const plan = this.plan;
    const timeout = this.timeoutOf(task);
    let timedOut = false;
    const cancelTimer = this.host.after(timeout * 1000, () => {
      timedOut = true;
      controller.abort();
    });
    const commands = this.job.preMergeVerify ?? [];
    const gate: PreMergeGate | undefined =
      commands.length === 0 || plan.isolation !== "worktree"
        ? undefined
        : {
            commands,
            // The agent's time is over; each command has its own limit in the runner.
            accepts: (result) => {
              cancelTimer();
              return !controller.signal.aborted && this.resultProblem(task, result) === null;
            },
          };
    try {
      const runner = this.host.runner;
      const outcome = await Promise.resolve()
        .then(() =>
          runner.runTask(
            {
              flowId: this.job.flowId,
              stepId: this.job.step.id,
              taskId: id,
              task,
              prompt: plan.prompt(task, this.view),
              agent: plan.agent(task),
              cwd: this.job.cwd,
              isolation: plan.isolation,
              captureDiff: plan.captureDiff,
              timeoutSeconds: timeout,
              ...(gate === undefined ? {} : { gate }),
            },
            controller.signal,
          ),
        )
        .catch(
          (e: unknown): ParallelTaskOutcome => ({
            ok: false,
            error: e instanceof Error ? e.message : String(e),
          }),
        );
      return timedOut ? "timeout" : outcome;
    } finally {
      cancelTimer();
    }
  }

  /** Seconds the task's agent may run: its own limit (a pipeline stage's), else the step's. */
  private timeoutOf(task: PyValue): number {
    return this.plan.timeoutOf?.(task) ?? this.plan.taskTimeout;
  }

  private async record(
    id: string,
    task: PyValue,
    outcome: ParallelTaskOutcome | "timeout",
    controller: AbortController,
  ): Promise<void> {
    const timeout = this.timeoutOf(task);
    if (this.shutdownError !== null) {
      const kept = outcome === "timeout" ? {} : extraOf(outcome);
      await this.finish(id, { state: "failed", error: this.shutdownError, ...kept });
      return;
    }
    if (outcome === "timeout") {
      await this.finish(id, { state: "failed", error: `timeout after ${timeout}s` });
      return;
    }
    const extra = extraOf(outcome);
    if (controller.signal.aborted) {
      await this.finish(id, { state: "cancelled", ...extra });
      return;
    }
    if (!outcome.ok) {
      await this.finish(id, { state: "failed", error: outcome.error, ...extra });
      return;
    }
    const problem = this.resultProblem(task, outcome.result);
    if (problem !== null && problem.kind === "size") {
      await this.finish(id, { state: "failed", error: problem.error, ...extra });
      return;
    }
    if (problem !== null && problem.kind === "certificate") {
      await this.finish(id, {
        state: "failed",
        result: outcome.result,
        error: "certificate validation failed",
        cert_violations: problem.violations,
        ...extra,
      });
      return;
    }
    const bounce = outcome.gateBounce ?? null;
    if (bounce !== null) {
      await this.finish(id, {
        state: "failed",
        result: outcome.result,
        error: gateError(bounce),
        gate_bounce: gateBounceValue(id, bounce),
        ...extra,
      });
      return;
    }
    // A pipeline stage's exit_when is judged, a split's list checked, before its dependants go on.
    const failure = this.plan.routing?.completed(task, outcome.result) ?? null;
    if (failure !== null) {
      await this.finish(id, { state: "failed", result: outcome.result, error: failure, ...extra });
      return;
    }
    await this.finish(id, { state: "complete", result: outcome.result, ...extra });
  }

  /**
   * Why a successful agent's result fails its task: past the limits of a tool argument (checked
   * before the certificate check and the store, which recurse over it), or missing a section of
   * the task certificate.
   */
  private resultProblem(
    task: PyValue,
    result: PyValue,
  ): { kind: "size"; error: string } | { kind: "certificate"; violations: string[] } | null {
    const tooLarge = valueLimitProblem("result", result);
    if (tooLarge !== null) return { kind: "size", error: tooLarge };
    const template = this.plan.certificate(task);
    const violations = template === null ? [] : certificateViolations(template, result);
    return violations.length > 0 ? { kind: "certificate", violations } : null;
  }

  /** Records a terminal state, releases the dependants and cancels the rest when `require` is lost. */
  private async finish(
    id: string,
    change: Partial<TaskEntry> & { readonly state: TaskState },
  ): Promise<void> {
    const before = this.entries.get(id)!;
    if (TERMINAL.has(before.state)) return;
    const finishedAt = this.now();
    const entry: TaskEntry = {
      ...before,
      ...change,
      finished_at: finishedAt,
      elapsed_s: new PyFloat(
        before.started_at === null ? 0 : Math.max(0, finishedAt.v - before.started_at.v),
      ),
    };
    const written = await this.write(id, before.state, entry);
    if (written === null) this.settle.get(id)?.("cancelled");
    else this.settled_(id, written);
  }

  /** A task reached a terminal state: its dependants go on, and `require` is judged again. */
  private settled_(id: string, entry: TaskEntry): void {
    this.settle.get(id)?.(entry.state);
    // A task that spent the run budget stops the rest, as a lost `require` does.
    const states = new Map([...this.entries].map(([taskId, e]) => [taskId, e.state] as const));
    if (this.budgetStopped || this.plan.lost(states)) {
      this.cancelRemaining();
    }
  }

  /**
   * Writes one entry; the entry now stored, or null when the executor lost its entries (or could
   * write nothing at all, and then stopped). When the store refuses the entry, the task is
   * recorded `failed` with the store's reason instead, without the result, diff and certificate
   * violations that may have been what did not fit; the refusal is logged.
   */
  private async write(id: string, expected: TaskState, entry: TaskEntry): Promise<TaskEntry | null> {
    if (this.stopped) return null;
    const before = this.entries.get(id)!;
    this.entries.set(id, entry);
    const first = await this.tryWrite(expected, entry);
    if (first === "budget_stopped") this.budgetStopped = true;
    if (first === "written" || first === "budget_stopped") return entry;
    if (first === "lost") {
      this.stop();
      return null;
    }
    const where = this.where(id);
    this.host.log?.(`${where}: the store refused its ${entry.state} entry: ${first.failed}`);
    const finishedAt = entry.finished_at ?? this.now();
    const failed: TaskEntry = {
      ...before,
      state: "failed",
      finished_at: finishedAt,
      elapsed_s: new PyFloat(
        before.started_at === null ? 0 : Math.max(0, finishedAt.v - before.started_at.v),
      ),
      error: `could not store the task's entry: ${first.failed}`,
      tokens: entry.tokens,
      worktree_path: entry.worktree_path,
    };
    this.entries.set(id, failed);
    const second = await this.tryWrite(expected, failed);
    if (second === "budget_stopped") this.budgetStopped = true;
    if (second === "written" || second === "budget_stopped") return failed;
    if (second !== "lost")
      this.host.log?.(`${where}: the store refused its failed entry too: ${second.failed}`);
    this.entries.set(id, before);
    this.stop();
    return null;
  }

  /** The host's write, never rejecting. */
  private async tryWrite(expected: TaskState, entry: TaskEntry): Promise<EntryWrite> {
    try {
      return await this.host.write(this.job.flowId, [{ expected, entry }]);
    } catch (e) {
      return { failed: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The executor lost its entries: nothing more is written; running agents are aborted. */
  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const controller of this.controllers.values()) controller.abort();
    for (const [id, resolve] of this.settle)
      if (!TERMINAL.has(this.entries.get(id)!.state)) resolve("cancelled");
    for (const wake of this.waiting.splice(0)) wake();
  }

  /**
   * Pending tasks are cancelled at once; running ones when their agent returns after the abort.
   * Also the engine's call when a race has its winner (docs/reference/runtime.md §23.16).
   */
  cancelRemaining(): void {
    for (const [id, entry] of this.entries) {
      if (entry.state === "running") this.controllers.get(id)?.abort();
    }
    for (const [id, entry] of this.entries) {
      if (entry.state === "pending") void this.finish(id, { state: "cancelled" });
    }
  }

  private acquire(): Promise<void> {
    if (this.free > 0 || this.stopped) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.free -= 1;
        resolve();
      }),
    );
  }

  private release(): void {
    this.free += 1;
    this.waiting.shift()?.();
  }
}

/** What an outcome records whatever state the task ends in. */
function extraOf(outcome: ParallelTaskOutcome): Partial<TaskEntry> {
  return {
    tokens: outcome.tokens ?? 0,
    dollars_recorded: new PyFloat(outcome.dollars ?? 0),
    worktree_path: outcome.worktreePath ?? null,
    diff: outcome.diff ?? null,
    diff_error: outcome.diffError ?? null,
  };
}
