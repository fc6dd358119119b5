// How the server-side executor runs a step's tasks (docs/reference/runtime.md §23.6, docs/reference/runtime.md §23.16):
// the plan is the step kind's — a parallel step's keys (kinds/parallel_dispatch/executor-plan.ts),
// a member step's members all at once (kinds/shared/member-plan.ts), a pipeline's stages with their
// routing (kinds/pipeline/executor-plan.ts).
import type { ReasoningTemplateIR, StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import { FLOW_KINDS } from "./kinds/index";
import type { StartedTask } from "./parallel-start";
import type { TaskState } from "./parallel-tasks";

/** A task's state and result as the executor knows them (undefined: no such task). */
export type TaskView = (id: string) => { readonly state: TaskState; readonly result: PyValue } | undefined;

/** What happens to a task whose dependencies settled, before it takes a slot. */
export type Admission =
  | { readonly kind: "run" }
  | { readonly kind: "skip"; readonly result: PyValue }
  | { readonly kind: "cancel"; readonly error: string };

/**
 * Per-task routing of a pipeline (docs/reference/runtime.md §4.8): a `skipped` predecessor does not
 * cancel its dependants, a join waits for all its lanes, a stage may be skipped before it takes a
 * slot, and a completed stage may end its element or fail after all (a bad fanout list).
 */
export interface TaskRouting {
  /** True when the task waits for every dependency whatever its end (the join), then decides in `admit`. */
  waitsForAll(task: PyValue): boolean;
  /** The task's dependencies have settled (none cancelled it): run, skip or cancel it. */
  admit(task: PyValue, view: TaskView): Admission;
  /** The task's agent completed it (certificate passed): null, or the error that fails it instead. */
  completed(task: PyValue, result: PyValue): string | null;
}

export interface ExecutorPlan {
  readonly maxConcurrent: number;
  /** Seconds: the step's; `timeoutOf` may give a task its own. */
  readonly taskTimeout: number;
  readonly isolation: "worktree" | "none";
  readonly captureDiff: boolean;
  /** The prompt, rendered when the task starts (`view`: the other tasks as they are then). */
  prompt(task: PyValue, view: TaskView): string;
  agent(task: PyValue): string | null;
  /** The task's own time limit in seconds, when it has one. */
  timeoutOf?(task: PyValue): number;
  /** The certificate a task's result is checked for, or null. */
  certificate(task: PyValue): ReasoningTemplateIR | null;
  /** True when the step can no longer succeed (task states by id), so the tasks left are cancelled. */
  lost(states: ReadonlyMap<string, TaskState>): boolean;
  readonly routing?: TaskRouting;
}

/** The plan of a step stratum_parallel_start accepted (its kind has server-side tasks). */
export function executorPlanOf(step: StepIR, tasks: readonly StartedTask[]): ExecutorPlan {
  const server = FLOW_KINDS[step.kind].server;
  if (server === undefined) throw new Error(`step '${step.id}' has no server-side tasks`);
  return server.executorPlan(step, tasks);
}
