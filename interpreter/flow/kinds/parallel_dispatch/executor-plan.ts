// How the server-side executor runs a version 0.3 parallel step's tasks (docs/reference/runtime.md §23.6):
// its keys (`max_concurrent`, `task_timeout`, `isolation`, `capture_diff`, the rendered
// `intent_template`, the step's agent, the per-task certificate, the `require` cascade).
import type { StepIR } from "../../../../checker/ir/types";
import type { ExecutorPlan } from "../../executor-plan";
import { renderIntentTemplate } from "../../intent-template";
import { taskCertificateOf } from "./evaluate";
import { parallelOf } from "./payload";

export function parallelPlan(step: StepIR): ExecutorPlan {
  const parallel = parallelOf(step);
  const certificate = taskCertificateOf(step);
  return {
    maxConcurrent: Math.max(1, parallel.maxConcurrent.value),
    taskTimeout: parallel.taskTimeout,
    isolation: parallel.isolation === "none" ? "none" : "worktree",
    captureDiff: parallel.captureDiff && parallel.isolation === "worktree",
    prompt: (task) => renderIntentTemplate(parallel.intentTemplate, task),
    agent: () => step.agent,
    certificate: () => certificate,
    lost(byId) {
      const states = [...byId.values()];
      const complete = states.filter((s) => s === "complete").length;
      const active = states.filter((s) => s === "pending" || s === "running").length;
      const require = parallel.require;
      if (require === "any") return active === 0 && complete === 0;
      if (require === "all") return states.some((s) => s === "failed" || s === "cancelled");
      return complete + active < require.value;
    },
  };
}
