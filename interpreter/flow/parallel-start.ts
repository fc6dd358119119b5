// `stratum_parallel_start` (the server path): the checks of the reference in its order, then the
// step's task entries seeded as pending. The tasks themselves are run by the engine's executor
// over the injected agent runner (parallel-runner.ts) once this call has committed; without a
// runner the call answers `server_dispatch_unavailable` after the checks and changes nothing.
import type { StepIR } from "../../checker/ir/types";
import { dictGetStr } from "../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import type { StepArgs } from "../api";
import { ExecutionFailure, flowNotFound } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { currentStep } from "./current";
import { resolveValue } from "./inputs";
import { readProgress } from "./kinds/debate/state";
import { parallelOf } from "./kinds/parallel_dispatch/payload";
import { memberTasks, runsMembers } from "./kinds/shared/member-tasks";
import { parallelToolError } from "./parallel-errors";
import { taskGraphOf, taskGraphProblem } from "./parallel-task-graph";
import { entryState, pendingEntry, putTaskEntry } from "./parallel-tasks";
import type { FlowRun } from "./run";
import { stepModeOf } from "./step-mode";
import type { Tx } from "./tx";

export interface ParallelStartContext {
  /** An agent runner is injected (else `server_dispatch_unavailable`). */
  readonly runnerAvailable: boolean;
  /** An executor of this flow and step is still registered in this process. */
  readonly executorRegistered: boolean;
}

/** A task the executor runs: its id (a string) and the task object. */
export interface StartedTask {
  readonly id: string;
  readonly task: PyDict;
}

const SERVER_DISPATCH_UNAVAILABLE =
  "This server has no agent runner for server-side parallel dispatch. Run the tasks yourself and report them with stratum_parallel_done (consumer-side dispatch).";

export function parallelStart(tx: Tx, args: StepArgs, context: ParallelStartContext): Response {
  const run = tx.edit(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const step = currentStep(run);
  if (step === null) return parallelToolError("flow_complete", "Flow is already complete");
  if (step.id !== args.step_id) {
    return parallelToolError("step_mismatch", `Expected step '${step.id}', got '${args.step_id}'`);
  }
  if (step.kind === "debate" && readProgress(run, step).phase !== "rounds") {
    return parallelToolError(
      "wrong_step_type",
      `Debate step '${step.id}' has finished its rounds: its synthesis is an execute_step reported with stratum_step_done.`,
    );
  }
  if (step.kind !== "parallel_dispatch" && !runsMembers(step)) {
    return parallelToolError(
      "wrong_step_type",
      `Step '${args.step_id}' is a ${stepModeOf(step)} step, not parallel_dispatch.`,
    );
  }
  if (step.kind === "parallel_dispatch" && parallelOf(step).isolation === "branch") {
    const prose =
      "branch-mode isolation is not yet supported in server-side parallel dispatch (see roadmap T2-F5-BRANCH). Use 'worktree' or 'none'.";
    return parallelToolError("branch_isolation_unsupported", prose, prose);
  }
  const started = [...run.state.parallel_tasks.values()].some((v) => entryState(v) !== "pending");
  if (started || context.executorRegistered) {
    return parallelToolError(
      "already_started",
      `Step '${step.id}' already dispatched; use stratum_parallel_poll.`,
    );
  }
  const tasks = startTasks(run, step);
  if (!Array.isArray(tasks)) return tasks;
  if (!context.runnerAvailable) {
    return parallelToolError("server_dispatch_unavailable", SERVER_DISPATCH_UNAVAILABLE);
  }
  for (const { id } of tasks) {
    if (!run.state.parallel_tasks.has(id)) putTaskEntry(run, pendingEntry(id));
  }
  return {
    status: "started",
    flow_id: run.state.flow_id,
    step_id: step.id,
    task_count: tasks.length,
    tasks: tasks.map((t) => t.id),
  };
}

/**
 * The step's task list for the executor, or the error answer: `source_resolution_failed`,
 * `no_tasks` (null or an empty list), and, where the reference crashes, `invalid_tasks` (not a
 * list, a task that is not an object with a string `id`, an inconsistent dependency graph).
 */
export function startTasks(run: FlowRun, step: StepIR): StartedTask[] | Response {
  // A quorum's runs and a race's candidates (docs/runtime.md §23.16).
  if (runsMembers(step)) return memberTasks(run, step);
  let value: PyValue;
  try {
    value = resolveValue(run, parallelOf(step).source);
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e;
    return parallelToolError(
      "source_resolution_failed",
      `Could not resolve tasks for step '${step.id}': ${e.message}`,
    );
  }
  if (value === null || (Array.isArray(value) && value.length === 0)) {
    return parallelToolError("no_tasks", `Step '${step.id}' source resolved to zero tasks.`);
  }
  if (!Array.isArray(value)) {
    return parallelToolError("invalid_tasks", `Step '${step.id}' source did not resolve to a list of tasks.`);
  }
  const tasks: StartedTask[] = [];
  for (const [i, task] of (value as readonly PyValue[]).entries()) {
    const id = task instanceof PyDict ? dictGetStr(task, "id") : undefined;
    if (!(task instanceof PyDict) || typeof id !== "string") {
      return parallelToolError(
        "invalid_tasks",
        `Task ${i} of step '${step.id}' is not an object with a string 'id'.`,
      );
    }
    tasks.push({ id, task });
  }
  const problem = taskGraphProblem(taskGraphOf(value));
  if (problem !== null) return parallelToolError("invalid_tasks", `Step '${step.id}': ${problem}`);
  return tasks;
}

/**
 * The task ids of a step as poll and advance find them: its `source` resolved now, the `id` of
 * every task; empty when that fails in any way (as the reference).
 */
export function taskIdsOf(run: FlowRun, step: StepIR): ReadonlySet<string> {
  if (runsMembers(step)) return new Set(memberTasks(run, step).map((t) => t.id));
  if (step.kind !== "parallel_dispatch") return new Set();
  let value: PyValue;
  try {
    value = resolveValue(run, parallelOf(step).source);
  } catch (e) {
    if (e instanceof ExecutionFailure) return new Set();
    throw e;
  }
  if (!Array.isArray(value)) return new Set();
  const ids = new Set<string>();
  for (const task of value as readonly PyValue[]) {
    const id = task instanceof PyDict ? dictGetStr(task, "id") : undefined;
    if (typeof id !== "string") return new Set();
    ids.add(id);
  }
  return ids;
}
