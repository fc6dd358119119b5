// How the server-side executor runs a step's tasks (docs/reference/runtime.md §23.6, docs/reference/runtime.md §23.16):
// the plan is the step kind's — a parallel step's keys (kinds/parallel_dispatch/executor-plan.ts),
// a member step's members all at once (kinds/shared/member-plan.ts).
import type { ReasoningTemplateIR, StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import { FLOW_KINDS } from "./kinds/index";

/** The tasks' states as the executor knows them. */
type TaskStates = readonly string[];

export interface ExecutorPlan {
  readonly maxConcurrent: number;
  /** Seconds. */
  readonly taskTimeout: number;
  readonly isolation: "worktree" | "none";
  readonly captureDiff: boolean;
  prompt(task: PyValue): string;
  agent(task: PyValue): string | null;
  readonly certificate: ReasoningTemplateIR | null;
  /** True when the step can no longer succeed, so the tasks left are cancelled. */
  lost(states: TaskStates): boolean;
}

/** The plan of a step stratum_parallel_start accepted (its kind has server-side tasks). */
export function executorPlanOf(step: StepIR, taskCount: number): ExecutorPlan {
  const server = FLOW_KINDS[step.kind].server;
  if (server === undefined) throw new Error(`step '${step.id}' has no server-side tasks`);
  return server.executorPlan(step, taskCount);
}
