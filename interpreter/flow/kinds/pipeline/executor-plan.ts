// How the server-side executor runs a pipeline's stage tasks (docs/reference/runtime.md §4.8): the
// step's max_concurrent and isolation, each stage's own agent, task_timeout and certificate, the
// stage prompt, the routing (skips, early exits, lanes, the join gate) and `require` counted over
// elements: an element is failed when one of its non-lane tasks failed or was cancelled, settled
// when none of its tasks is pending or running (the reference's _item_counts).
import type { StepIR } from "../../../../checker/ir/types";
import type { ExecutorPlan } from "../../executor-plan";
import type { StartedTask } from "../../parallel-start";
import type { TaskState } from "../../parallel-tasks";
import { stageCertificate } from "./certificate";
import { intField, stagePrompt, textField } from "./prompt";
import { PipelineRouting } from "./routing";
import { pipelineOf } from "./tasks";

interface ElementCounts {
  readonly complete: number;
  readonly failed: number;
  readonly active: number;
}

function elementCounts(tasks: readonly StartedTask[], states: ReadonlyMap<string, TaskState>): ElementCounts {
  const verdicts = new Map<number, "failed" | "active" | "complete">();
  for (const { id, task } of tasks) {
    const element = intField(task, "_pipeline_item");
    const state = states.get(id) ?? "pending";
    const before = verdicts.get(element) ?? "complete";
    const lane = textField(task, "_pipeline_role") === "lane";
    if (before === "failed") continue;
    if (!lane && (state === "failed" || state === "cancelled")) verdicts.set(element, "failed");
    else if (state === "pending" || state === "running") verdicts.set(element, "active");
    else verdicts.set(element, before);
  }
  const count = (v: string) => [...verdicts.values()].filter((x) => x === v).length;
  return { complete: count("complete"), failed: count("failed"), active: count("active") };
}

export function pipelinePlan(step: StepIR, tasks: readonly StartedTask[]): ExecutorPlan {
  const pipeline = pipelineOf(step);
  const routing = new PipelineRouting(step);
  const stageOf = (task: Parameters<ExecutorPlan["agent"]>[0]) =>
    pipeline.stages[intField(task, "_pipeline_stage")];
  return {
    maxConcurrent: Math.max(1, pipeline.maxConcurrent.value),
    taskTimeout: pipeline.taskTimeout,
    isolation: pipeline.isolation === "none" ? "none" : "worktree",
    captureDiff: false,
    prompt: (task, view) => stagePrompt(step, task, view, routing.laneInput),
    agent: (task) => stageOf(task)?.agent || step.agent,
    timeoutOf: (task) => stageOf(task)?.taskTimeout ?? pipeline.taskTimeout,
    certificate: (task) => stageCertificate(step, intField(task, "_pipeline_stage")),
    lost(states) {
      const { complete, failed, active } = elementCounts(tasks, states);
      const require = pipeline.require;
      if (require === "all") return failed > 0;
      if (require === "any") return complete === 0 && active === 0;
      return complete + active < require.value;
    },
    routing,
  };
}
