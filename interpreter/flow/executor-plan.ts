// How the server-side executor runs a step's tasks (docs/runtime.md §23.6): for a parallel_dispatch
// step, its keys (`max_concurrent`, `task_timeout`, `isolation`, `capture_diff`, the rendered
// `intent_template`, the step's agent, the per-task certificate, the `require` cascade); for
// stratumc's quorum, race and debate steps (docs/runtime.md §23.16), their members — all at once,
// each with its own intent and agent, no worktree, the default timeout, no certificate and no
// cascade (a quorum and a round need every member; a race's losers are cancelled when a
// candidate wins).
import type { ReasoningTemplateIR, StepIR } from "../../checker/ir/types";
import { dictGetStr } from "../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import { renderIntentTemplate } from "./intent-template";
import { memberTaskTimeout, runsMembers } from "./member-tasks";
import { taskCertificateOf } from "./parallel-evaluate";
import { parallelOf } from "./parallel-payloads";

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

export function executorPlanOf(step: StepIR, taskCount: number): ExecutorPlan {
  if (runsMembers(step)) return memberPlan(memberTaskTimeout(step), taskCount);
  const parallel = parallelOf(step);
  return {
    maxConcurrent: Math.max(1, parallel.maxConcurrent.value),
    taskTimeout: parallel.taskTimeout,
    isolation: parallel.isolation === "none" ? "none" : "worktree",
    captureDiff: parallel.captureDiff && parallel.isolation === "worktree",
    prompt: (task) => renderIntentTemplate(parallel.intentTemplate, task),
    agent: () => step.agent,
    certificate: taskCertificateOf(step),
    lost(states) {
      const complete = states.filter((s) => s === "complete").length;
      const active = states.filter((s) => s === "pending" || s === "running").length;
      const require = parallel.require;
      if (require === "any") return active === 0 && complete === 0;
      if (require === "all") return states.some((s) => s === "failed" || s === "cancelled");
      return complete + active < require.value;
    },
  };
}

/** The member tasks (member-tasks.ts) carry their own intent and agent. */
function memberPlan(taskTimeout: number, taskCount: number): ExecutorPlan {
  const text = (task: PyValue, key: string): string | null => {
    const v = task instanceof PyDict ? dictGetStr(task, key) : undefined;
    return typeof v === "string" ? v : null;
  };
  return {
    maxConcurrent: Math.max(1, taskCount),
    taskTimeout,
    isolation: "none",
    captureDiff: false,
    prompt: (task) => text(task, "intent") ?? "",
    agent: (task) => text(task, "agent"),
    certificate: null,
    lost: () => false,
  };
}
