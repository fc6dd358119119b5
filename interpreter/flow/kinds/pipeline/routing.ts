// How the server-side executor routes a pipeline's stage tasks (docs/reference/runtime.md §4.8, the
// reference's _route_skip, _check_exit_when, the join gate and the fanout list check): one instance
// per started step, holding what the run learns — the stage at which each element exited and each
// split's list. Predicates are the spec's compiled expressions with the values bound raw; a `when`
// that raises runs the stage (fails open), an `exit_when` that raises does not exit (fails closed).
import type { ExpressionIR, StepIR } from "../../../../checker/ir/types";
import { dictGetStr } from "../../../../stdlib/values/dict";
import { PyError } from "../../../../stdlib/values/errors";
import { JsonSyntaxError, parseJson } from "../../../../stdlib/values/json";
import { repr } from "../../../../stdlib/values/repr";
import { truthy } from "../../../../stdlib/values/truth";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { compileExpression } from "../../../eval/compile";
import type { CompiledExpression } from "../../../eval/context";
import { evaluate } from "../../../eval/evaluate";
import type { Admission, TaskRouting, TaskView } from "../../executor-plan";
import { asText, dependencies, intField, textField } from "./prompt";
import { pipelineOf } from "./tasks";

const compiled = new WeakMap<ExpressionIR, CompiledExpression>();

/** The predicate's truth, or null when it raised. */
function holds(expr: ExpressionIR, names: ReadonlyMap<string, PyValue>): boolean | null {
  let code = compiled.get(expr);
  if (code === undefined) {
    code = compileExpression(expr.ast);
    compiled.set(expr, code);
  }
  try {
    return truthy(evaluate(code, names));
  } catch (e) {
    if (e instanceof PyError) return null;
    throw e;
  }
}

/** A split's result as the fanout list, or the reason it is not one. */
function fanoutList(result: PyValue): PyValue[] | string {
  if (Array.isArray(result)) return result;
  if (typeof result !== "string") return "fanout stage result is not a list";
  try {
    const parsed = parseJson(result);
    return Array.isArray(parsed) ? parsed : "fanout stage result is not a JSON array";
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e.message;
    throw e;
  }
}

/** The join's lane `require` over the filled lanes (an unfilled lane is `skipped`). */
function laneRequireMet(require: PyValue, complete: number, filled: number): boolean {
  if (require === "any") return complete >= 1;
  if (typeof require === "number") return complete >= require;
  return complete === filled;
}

export class PipelineRouting implements TaskRouting {
  /** Element index → the stage whose exit_when held. */
  private readonly exited = new Map<number, number>();
  /** Split task id → its validated list. */
  private readonly lists = new Map<string, readonly PyValue[]>();

  constructor(private readonly step: StepIR) {}

  waitsForAll(task: PyValue): boolean {
    return textField(task, "_pipeline_role") === "join";
  }

  /** A lane's element of its split's list (null when the lane is unfilled). */
  readonly laneInput = (task: PyValue): PyValue => {
    const list = this.lists.get(textField(task, "_fanout_split_id") ?? "");
    return list?.[intField(task, "_fanout_lane")] ?? null;
  };

  admit(task: PyValue, view: TaskView): Admission {
    const role = textField(task, "_pipeline_role");
    const deps = dependencies(task);
    if (role === "join") {
      const ends = deps.map((d) => view(d)?.state);
      const filled = ends.filter((s) => s !== "skipped");
      const complete = filled.filter((s) => s === "complete").length;
      const require = task instanceof PyDict ? (dictGetStr(task, "_fanout_require") ?? "all") : "all";
      if (!laneRequireMet(require, complete, filled.length)) {
        return {
          kind: "cancel",
          error: `fanout require=${repr(require)} not satisfied: ${complete}/${filled.length} lanes completed`,
        };
      }
    }
    const itemIndex = intField(task, "_pipeline_item");
    const stage = intField(task, "_pipeline_stage");
    const item = task instanceof PyDict ? (dictGetStr(task, "item") ?? null) : null;
    const prev = deps.length === 1 ? (view(deps[0] as string)?.result ?? null) : null;
    const passthrough = deps.length > 0 ? prev : item;
    const exitedAt = this.exited.get(itemIndex);
    if (exitedAt !== undefined && exitedAt < stage) return { kind: "skip", result: passthrough };
    if (role === "lane" && !this.filled(task)) return { kind: "skip", result: null };
    const when = pipelineOf(this.step).stages[stage]?.when ?? null;
    if (when !== null) {
      const names = new Map<string, PyValue>([["item", item]]);
      if (stage !== 0) {
        names.set("prev_raw", prev);
        names.set("prev", asText(prev));
      }
      if (holds(when, names) === false) return { kind: "skip", result: passthrough };
    }
    return { kind: "run" };
  }

  completed(task: PyValue, result: PyValue): string | null {
    const stage = intField(task, "_pipeline_stage");
    const exitWhen = pipelineOf(this.step).stages[stage]?.exitWhen ?? null;
    if (exitWhen !== null) {
      const item = task instanceof PyDict ? (dictGetStr(task, "item") ?? null) : null;
      const names = new Map<string, PyValue>([
        ["item", item],
        ["result_raw", result],
        ["result", asText(result)],
      ]);
      if (holds(exitWhen, names) === true) this.exited.set(intField(task, "_pipeline_item"), stage);
    }
    if (textField(task, "_pipeline_role") !== "split") return null;
    const list = fanoutList(result);
    if (typeof list === "string") return `fanout split: ${list}`;
    const max = intField(task, "_fanout_max");
    if (list.length > max) return `fanout list length ${list.length} exceeds max ${max}`;
    this.lists.set(textField(task, "id") ?? "", list);
    return null;
  }

  private filled(task: PyValue): boolean {
    const list = this.lists.get(textField(task, "_fanout_split_id") ?? "");
    return list !== undefined && intField(task, "_fanout_lane") < list.length;
  }
}
