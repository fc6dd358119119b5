// A pipeline step unfolded into its stage tasks (docs/reference/runtime.md §4.8): element-major ids
// `<step>::item<i>::stage<j>[::lane<k>]`, each depending on its element's previous stage. A pure
// function of the step and the source list, so every payload and report of one attempt names the
// same ids (the reference's expand_pipeline_tasks).
import type { PipelineIR, StageIR, StepIR } from "../../../../checker/ir/types";
import { dictSet } from "../../../../stdlib/values/dict";
import { fromJsonValue } from "../../../../stdlib/values/json";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { reasoningTemplateWire } from "./certificate";

/** Keys an object element's fields never overwrite (the task's own and the stage settings). */
const RESERVED: ReadonlySet<string> = new Set(["id", "depends_on", "item"]);

type PipelineRole = "plain" | "split" | "lane" | "join";

/** The pipeline part of a pipeline step. */
export function pipelineOf(step: StepIR): PipelineIR {
  const pipeline = step.pipeline ?? null;
  if (pipeline === null) throw new Error(`step '${step.id}' is not a pipeline step`);
  return pipeline;
}

function taskId(step: string, item: number, stage: number, lane?: number): string {
  return `${step}::item${item}::stage${stage}${lane === undefined ? "" : `::lane${lane}`}`;
}

interface Unfolding {
  readonly fanout: number | null;
  readonly join: number | null;
}

function regionOf(pipeline: PipelineIR): Unfolding {
  const fanout = pipeline.stages.findIndex((s) => s.fanout !== null);
  const join = pipeline.stages.findIndex((s) => s.join);
  return { fanout: fanout < 0 ? null : fanout, join: join < 0 ? null : join };
}

function baseTask(
  step: StepIR,
  i: number,
  item: PyValue,
  stage: StageIR,
  role: PipelineRole,
  depends: readonly string[],
  lane?: { readonly k: number; readonly splitId: string },
): PyDict {
  const task = new PyDict();
  dictSet(task, "id", taskId(step.id, i, stage.index, lane?.k));
  dictSet(task, "depends_on", [...depends]);
  dictSet(task, "_pipeline_item", i);
  dictSet(task, "_pipeline_stage", stage.index);
  dictSet(task, "_pipeline_role", role);
  dictSet(task, "_intent_template", stage.intentTemplate);
  dictSet(task, "_agent", stage.agent);
  dictSet(task, "_task_timeout", stage.taskTimeout);
  dictSet(task, "_task_reasoning_template", reasoningTemplateWire(stage.taskReasoningTemplate));
  dictSet(task, "_when", stage.when?.text ?? null);
  dictSet(task, "_exit_when", stage.exitWhen?.text ?? null);
  dictSet(task, "item", item);
  if (lane !== undefined) {
    dictSet(task, "_fanout_lane", lane.k);
    dictSet(task, "_fanout_split_id", lane.splitId);
  }
  // A lane's `{item}` is the lane's element, so the source element's fields are not splatted there.
  if (lane === undefined && item instanceof PyDict) {
    for (const [k, v] of item.entries.values()) {
      if (typeof k !== "string" || RESERVED.has(k) || k.startsWith("_")) continue;
      dictSet(task, k, v);
    }
  }
  return task;
}

/** Every stage task of the step over `items`, element-major. */
export function unfoldPipeline(step: StepIR, items: readonly PyValue[]): PyDict[] {
  const pipeline = pipelineOf(step);
  const { fanout, join } = regionOf(pipeline);
  const tasks: PyDict[] = [];
  items.forEach((item, i) => {
    for (const stage of pipeline.stages) {
      const j = stage.index;
      const prev = j > 0 ? [taskId(step.id, i, j - 1)] : [];
      if (fanout === null || join === null) {
        tasks.push(baseTask(step, i, item, stage, "plain", prev));
        continue;
      }
      const lanes = pipeline.stages[fanout]?.fanout?.max ?? 0;
      if (j > fanout && j < join) {
        const splitId = taskId(step.id, i, fanout);
        for (let k = 0; k < lanes; k++) {
          const depends = j === fanout + 1 ? [splitId] : [taskId(step.id, i, j - 1, k)];
          tasks.push(baseTask(step, i, item, stage, "lane", depends, { k, splitId }));
        }
        continue;
      }
      const role: PipelineRole = j === fanout ? "split" : j === join ? "join" : "plain";
      const depends =
        role === "join" ? Array.from({ length: lanes }, (_, k) => taskId(step.id, i, j - 1, k)) : prev;
      const task = baseTask(step, i, item, stage, role, depends);
      if (role === "split") dictSet(task, "_fanout_max", lanes);
      if (role === "join") {
        const require = pipeline.stages[fanout]?.fanout?.require ?? "all";
        dictSet(task, "_fanout_require", fromJsonValue(require));
      }
      tasks.push(task);
    }
  });
  return tasks;
}
