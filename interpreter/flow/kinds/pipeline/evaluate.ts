// A pipeline step's reported stage tasks judged as the step's result (the reference's
// _evaluate_parallel_results and _collapse_pipeline_items, docs/reference/runtime.md §4.8): each
// completed task's certificate, the tasks collapsed into elements by the UNFOLDED graph (a task
// left out of the report cannot satisfy `require`), `require` over elements, and the aggregate
// `{items, require_satisfied, merge_status, tasks, outcome}`.
// A task the consumer reports `skipped` is trusted as the reference trusts it: the consumer
// evaluates `when` / `exit_when` itself (docs/reference/runtime.md §4.8, "skipped is trusted").
import type { StepIR } from "../../../../checker/ir/types";
import { dictGetStr, dictSet } from "../../../../stdlib/values/dict";
import { str } from "../../../../stdlib/values/repr";
import { truthy } from "../../../../stdlib/values/truth";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { bounceViolations, type MergeReport } from "../../merge-report";
import { certificateViolations } from "../../reasoning";
import {
  certificateViolation,
  mergeConflict,
  requireViolation,
  taskViolation,
  type Violation,
} from "../../violations";
import { requireWire } from "../parallel_dispatch/payload";
import { taskIdText } from "../parallel_dispatch/validate";
import { stageCertificate } from "./certificate";
import { pipelineOf } from "./tasks";

export interface PipelineEvaluation {
  readonly aggregate: PyDict;
  /** `task '<id>' cert: …` per task whose certificate failed, in report order. */
  readonly taskViolations: readonly Violation[];
  /** The require or merge reason, then the task violations (empty when the aggregate passes). */
  readonly failureViolations: readonly Violation[];
}

const SETTLED: ReadonlySet<string> = new Set(["complete", "skipped", "failed", "cancelled"]);

function statusOf(task: PyValue | undefined): string {
  if (!(task instanceof PyDict)) return "missing";
  const s = dictGetStr(task, "status");
  return typeof s === "string" ? s : "missing";
}

function copyWith(task: PyDict, changes: readonly (readonly [string, PyValue])[]): PyDict {
  const out = new PyDict();
  for (const [k, v] of task.entries.values()) dictSet(out, k, v);
  for (const [k, v] of changes) dictSet(out, k, v);
  return out;
}

/** The stage a reported task belongs to, by its id in the unfolded graph. */
function metaOf(graph: ReadonlyMap<string, PyDict>, task: PyValue): PyDict | undefined {
  const id = task instanceof PyDict ? dictGetStr(task, "task_id") : undefined;
  return typeof id === "string" ? graph.get(id) : undefined;
}

function intOf(task: PyDict, key: string): number {
  const v = dictGetStr(task, key);
  return typeof v === "number" ? v : Number(v ?? 0);
}

/** Certificates: a completed task whose effective certificate fails becomes `failed` (a copy). */
function judgeCertificates(
  step: StepIR,
  graph: ReadonlyMap<string, PyDict>,
  reported: readonly PyValue[],
  violations: Violation[],
): PyValue[] {
  return reported.map((task) => {
    if (!(task instanceof PyDict) || statusOf(task) !== "complete") return task;
    const meta = metaOf(graph, task);
    const template = meta === undefined ? null : stageCertificate(step, intOf(meta, "_pipeline_stage"));
    if (template === null) return task;
    const result = dictGetStr(task, "result") ?? null;
    const found = certificateViolations(template, truthy(result) ? result : new PyDict());
    if (found.length === 0) return task;
    violations.push(taskViolation(taskIdText(task), "cert", found.map(certificateViolation)));
    return copyWith(task, [
      ["status", "failed"],
      ["error", `cert validation: ${found.join("; ")}`],
      ["cert_violations", [...found]],
    ]);
  });
}

/** One element's verdict from its expected tasks (plain, split and join stages; lanes only settle). */
function collapse(expected: readonly PyDict[], byId: ReadonlyMap<string, PyDict>): PyDict {
  const stages = expected
    .filter((m) => dictGetStr(m, "_pipeline_role") !== "lane")
    .sort((a, b) => intOf(a, "_pipeline_stage") - intOf(b, "_pipeline_stage"));
  const lanes = expected.filter((m) => dictGetStr(m, "_pipeline_role") === "lane");
  const reports = stages.map((m) => byId.get(String(dictGetStr(m, "id"))));
  const statuses = reports.map(statusOf);
  const laneStatuses = lanes.map((m) => statusOf(byId.get(String(dictGetStr(m, "id")))));
  const status = statuses.some((s) => s === "failed" || s === "cancelled")
    ? "failed"
    : statuses.length > 0 &&
        statuses.every((s) => s === "complete" || s === "skipped") &&
        laneStatuses.every((s) => SETTLED.has(s))
      ? "complete"
      : "incomplete";
  const last = reports[reports.length - 1];
  const entry = new PyDict();
  dictSet(entry, "item", stages[0] === undefined ? null : (dictGetStr(stages[0], "item") ?? null));
  dictSet(entry, "status", status);
  dictSet(
    entry,
    "result",
    status === "complete" && last !== undefined ? (dictGetStr(last, "result") ?? null) : null,
  );
  dictSet(
    entry,
    "stages",
    reports.map((r) => (r === undefined ? null : (dictGetStr(r, "result") ?? null))),
  );
  return entry;
}

export function evaluatePipelineResults(
  step: StepIR,
  graphTasks: readonly PyDict[],
  taskResults: readonly PyValue[],
  merge: MergeReport,
): PipelineEvaluation {
  const graph = new Map(graphTasks.map((t) => [String(dictGetStr(t, "id")), t] as const));
  const taskViolations: Violation[] = [];
  const tasks = judgeCertificates(step, graph, taskResults, taskViolations);
  taskViolations.push(...bounceViolations(merge.bounced));
  const mergeStatus = merge.status;
  // The last report of an id counts (the reference builds a dict over the reports).
  const byId = new Map<string, PyDict>();
  for (const t of tasks) {
    const id = t instanceof PyDict ? dictGetStr(t, "task_id") : undefined;
    if (t instanceof PyDict && typeof id === "string") byId.set(id, t);
  }
  const perElement = new Map<number, PyDict[]>();
  for (const meta of graphTasks) {
    const i = intOf(meta, "_pipeline_item");
    const list = perElement.get(i) ?? [];
    list.push(meta);
    perElement.set(i, list);
  }
  const items = [...perElement.keys()]
    .sort((a, b) => a - b)
    .map((i) => collapse(perElement.get(i) ?? [], byId));
  const complete = items.filter((it) => dictGetStr(it, "status") === "complete").length;
  const require = pipelineOf(step).require;
  const requireSatisfied =
    require === "all"
      ? items.length > 0 && complete === items.length
      : require === "any"
        ? complete > 0
        : complete >= require.value;
  const mergeOk = mergeStatus !== "conflict";
  const aggregate = new PyDict();
  dictSet(aggregate, "items", items);
  dictSet(aggregate, "require_satisfied", requireSatisfied);
  dictSet(aggregate, "merge_status", mergeStatus);
  dictSet(aggregate, "tasks", tasks);
  dictSet(aggregate, "outcome", requireSatisfied && mergeOk ? "complete" : "failed");
  // The reference's counts here are of stage TASKS, not elements (recorded; kept).
  const completedTasks = tasks.filter((t) => statusOf(t) === "complete").length;
  const failedTasks = tasks.filter((t) => statusOf(t) !== "complete" && statusOf(t) !== "skipped").length;
  const reason = !mergeOk
    ? mergeConflict()
    : !requireSatisfied
      ? requireViolation(
          `require='${str(requireWire(require))}' not satisfied: ${completedTasks} completed, ${failedTasks} failed`,
        )
      : null;
  return {
    aggregate,
    taskViolations,
    failureViolations: reason === null ? [] : [reason, ...taskViolations],
  };
}
