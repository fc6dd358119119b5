// The task lists a step's report holds where a parallel step of its flow reads them (its `source`,
// `$.steps.<id>.output.<field>`), and whether the dispatch refused one: the agent's mistake (a
// duplicate id, an unknown dependency, a cycle), which the driver answers with a well-formed list
// and the observer does not report.
import type { FlowIR, StepIR } from "../../checker/index";
import { taskGraphOf, taskGraphProblem } from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/index";
import type { Plain, WireCall } from "./session";

function isObject(v: unknown): v is Plain {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The paths (below the step's output) of the task lists the flow's parallel steps read from `step`. */
export function taskListPaths(flow: FlowIR, step: StepIR): string[][] {
  const out: string[][] = [];
  for (const s of flow.steps) {
    const ref = s.parallel?.sourceRef ?? null;
    if (ref === null || ref.scope !== "steps" || ref.name.name !== step.id) continue;
    // A `$.steps.<id>.output.<a>.<b>` reference's fields are `<a>`, `<b>` (the `output` segment is implied).
    const path = ref.fields.map((f) => f.name);
    if (!out.some((p) => p.join(".") === path.join("."))) out.push(path);
  }
  return out;
}

/**
 * Whether an error answering the report of a step (a decompose step, mostly) is the dispatch
 * refusing the task list it reported (docs/reference/runtime.md §23.1): the parallel step's `source` failed
 * while one of the lists the report holds has a graph problem by the interpreter's own check (a
 * duplicate id, an unknown dependency, a cycle) — the agent's mistake, not the spec's.
 */
export function isRefusedTaskList(flow: FlowIR | undefined, call: WireCall, response: Plain): boolean {
  if (response.status !== "error" || typeof response.source !== "string") return false;
  if (flow === undefined || call.tool !== "stratum_step_done") return false;
  const step = flow.stepById.get(String(call.arguments.step_id));
  if (step === undefined) return false;
  return taskListPaths(flow, step).some((path) => {
    let v: unknown = call.arguments.result;
    for (const key of path) v = isObject(v) && Object.hasOwn(v, key) ? v[key] : undefined;
    return Array.isArray(v) && taskGraphProblem(taskGraphOf(fromJsonValue(v))) !== null;
  });
}
