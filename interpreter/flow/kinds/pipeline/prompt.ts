// A pipeline stage task's prompt on the server path (docs/reference/runtime.md §4.8): the stage's
// intent_template rendered over the task object and the placeholders of
// docs/reference/language.md §6.9 — `{prev}` / `{prev_raw}` from the single predecessor, a lane's `{item}` (its element of the
// fanout list) and `{source}` / `{source_raw}`, the join's `{prevs}` / `{prevs_raw}` (the completed
// lanes' results) — then the stage's effective certificate's instructions appended. Rendering
// follows the parallel step's rule (docs/reference/runtime.md §23.9), not Python str.format: an
// unknown placeholder stays as written instead of leaving the whole template unrendered
// (DIV-PARALLEL-TEMPLATE).
import type { StepIR } from "../../../../checker/ir/types";
import { dictGetStr, dictSet } from "../../../../stdlib/values/dict";
import { toJson } from "../../../../stdlib/values/json";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import type { TaskView } from "../../executor-plan";
import { renderIntentTemplate } from "../../intent-template";
import { injectCertInstructions } from "../../reasoning";
import { stageCertificate } from "./certificate";
import { pipelineOf } from "./tasks";

/** A value as the prompt and the predicates see it as text: a string as is, anything else as JSON. */
export function asText(value: PyValue): string {
  return typeof value === "string" ? value : toJson(value, { ensureAscii: false });
}

export function intField(task: PyValue, key: string): number {
  const v = task instanceof PyDict ? dictGetStr(task, key) : undefined;
  return typeof v === "number" ? v : 0;
}

export function textField(task: PyValue, key: string): string | null {
  const v = task instanceof PyDict ? dictGetStr(task, key) : undefined;
  return typeof v === "string" ? v : null;
}

export function dependencies(task: PyValue): string[] {
  const v = task instanceof PyDict ? dictGetStr(task, "depends_on") : undefined;
  return Array.isArray(v) ? v.filter((d): d is string => typeof d === "string") : [];
}

/** The element a lane runs on (its index in the split's list), given the lists known so far. */
export type LaneInput = (task: PyValue) => PyValue;

/** The task object with the stage's placeholders bound (a copy). */
function bindings(task: PyDict, view: TaskView, laneInput: LaneInput): PyDict {
  const names = new PyDict();
  for (const [k, v] of task.entries.values()) dictSet(names, k, v);
  const deps = dependencies(task);
  const role = textField(task, "_pipeline_role");
  const single = deps.length === 1 ? view(deps[0] as string) : undefined;
  const source = dictGetStr(task, "item") ?? null;
  if (role === "lane" || role === "join") {
    dictSet(names, "source_raw", source);
    dictSet(names, "source", asText(source));
  }
  if (role === "lane") {
    const element = laneInput(task);
    dictSet(names, "item", element);
    if (deps.length === 1 && deps[0] === textField(task, "_fanout_split_id")) {
      dictSet(names, "prev_raw", element);
      dictSet(names, "prev", asText(element));
      return names;
    }
  }
  if (role === "join") {
    const survivors = deps
      .map((d) => view(d))
      .filter((e) => e?.state === "complete")
      .map((e) => e?.result ?? null);
    dictSet(names, "prevs_raw", survivors);
    dictSet(names, "prevs", toJson(survivors, { ensureAscii: false }));
    return names;
  }
  if (single !== undefined) {
    dictSet(names, "prev_raw", single.result);
    dictSet(names, "prev", asText(single.result));
  }
  return names;
}

export function stagePrompt(step: StepIR, task: PyValue, view: TaskView, laneInput: LaneInput): string {
  const stage = intField(task, "_pipeline_stage");
  const template = pipelineOf(step).stages[stage]?.intentTemplate ?? "";
  const names = task instanceof PyDict ? bindings(task, view, laneInput) : new PyDict();
  const rendered = renderIntentTemplate(template, names);
  const certificate = stageCertificate(step, stage);
  return certificate === null ? rendered : injectCertInstructions(rendered, certificate);
}
