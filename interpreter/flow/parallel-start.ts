// `stratum_parallel_start` (the server path): the checks of the reference in its order, then the
// step's task entries seeded as pending. The tasks themselves are run by the engine's executor
// over the injected agent runner (parallel-runner.ts) once this call has committed; without a
// runner the call answers `server_dispatch_unavailable` after the checks and changes nothing.
// Which tasks a step has is its kind's (kinds/): a parallel step's resolved `source`, a member
// step's members; a kind without server-side tasks is `wrong_step_type`.
import type { StepIR } from "../../checker/ir/types";
import type { PyDict } from "../../stdlib/values/value";
import type { StepArgs } from "../api";
import { flowNotFound } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { budgetHalt } from "./budget-stop";
import { currentStep } from "./current";
import { FLOW_KINDS, stepModeOf } from "./kinds/index";
import { parallelToolError } from "./parallel-errors";
import { entryState, pendingEntry, putTaskEntry } from "./parallel-tasks";
import type { FlowRun } from "./run";
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
  const server = FLOW_KINDS[step.kind].server;
  if (server === undefined) {
    return parallelToolError(
      "wrong_step_type",
      `Step '${args.step_id}' is a ${stepModeOf(step)} step, not parallel_dispatch.`,
    );
  }
  const refused = server.refuseStart?.(run, step) ?? null;
  if (refused !== null) return refused;
  const started = [...run.state.parallel_tasks.values()].some((v) => entryState(v) !== "pending");
  if (started || context.executorRegistered) {
    return parallelToolError(
      "already_started",
      `Step '${step.id}' already dispatched; use stratum_parallel_poll.`,
    );
  }
  // No fan-out once the run budget is spent.
  const halted = budgetHalt(tx, run);
  if (halted !== null) return halted;
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

/** The step's task list for the executor, or the error answer of stratum_parallel_start. */
export function startTasks(run: FlowRun, step: StepIR): StartedTask[] | Response {
  const server = FLOW_KINDS[step.kind].server;
  if (server === undefined) {
    return parallelToolError(
      "wrong_step_type",
      `Step '${step.id}' is a ${stepModeOf(step)} step, not parallel_dispatch.`,
    );
  }
  return server.startTasks(run, step);
}

/** The task ids of a step as poll and advance find them (none for a kind without server-side tasks). */
export function taskIdsOf(run: FlowRun, step: StepIR): ReadonlySet<string> {
  return FLOW_KINDS[step.kind].server?.taskIds(run, step) ?? new Set();
}
