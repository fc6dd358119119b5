// The `when` and `exit_when` predicates of a pipeline step's stages (reference 0.2.69,
// docs/reference/language.md §6.9): expressions of the ensure language over their own names, bound
// RAW (an object element is a dict: `item['lang']`, not `item.lang`). `prev` and `result` are the
// outputs as text, so subscripting them is reported where the reference only fails at run time.
import type { Expr, PathRef } from "../../grammar/ast";
import { walk } from "../../grammar/walk";
import { ANY, STR, type Type } from "../../stdlib/types/type";
import { members } from "../../stdlib/types/union";
import type { ExprEnvironment } from "../expr/types";
import { stagesOf } from "../kinds/pipeline/stages";
import type { StepDecl } from "../model/types";
import type { Reporter } from "../report";
import type { ScalarNode } from "../yaml/nodes";
import { parseInputReference } from "./input-refs";
import { type OutputTypeOf, resolveRef } from "./path-types";
import { SPEC_PIPELINE_PREDICATE_PATH } from "./rules/SPEC-PIPELINE-PREDICATE-PATH";

/** The element type of a pipeline's `source` list (`any` when unknown). */
export function sourceElementType(step: StepDecl, outputType: OutputTypeOf): Type {
  const raw = step.string("source")?.value;
  const ref: PathRef | null = raw === undefined ? null : parseInputReference(raw);
  if (ref === null) return ANY;
  const resolved = resolveRef(ref, step.flow, outputType);
  if (resolved.problem !== null) return ANY;
  const lists = members(resolved.type).filter((t) => t.k !== "none");
  const [only] = lists;
  return lists.length === 1 && only?.k === "list" ? only.elem : ANY;
}

export type StagePredicateField = "when" | "exit_when";

/** The names a stage predicate may use, sorted as the reference lists them (compile_predicate's allow-lists). */
export function stagePredicateNames(field: StagePredicateField, stageIndex: number): readonly string[] {
  if (field === "exit_when") return ["item", "result", "result_raw"];
  return stageIndex > 0 ? ["item", "prev", "prev_raw"] : ["item"];
}

/** The names a stage predicate sees and their types. */
export function stagePredicateEnvironment(
  field: StagePredicateField,
  stageIndex: number,
  element: Type,
  owner: string,
): ExprEnvironment {
  const names = new Map<string, Type>(stagePredicateNames(field, stageIndex).map((n) => [n, ANY]));
  names.set("item", element);
  if (names.has("result")) names.set("result", STR);
  if (names.has("prev")) names.set("prev", STR);
  return { kind: "ensure", names, owner };
}

/** The predicate scalars of a step's valid stages. */
export function stagePredicateNodes(step: StepDecl) {
  return stagesOf(step).flatMap((stage) =>
    (["when", "exit_when"] as const).flatMap((field) => {
      const entry = stage.node.get(field);
      const node = entry?.value;
      return node?.kind === "scalar" && typeof node.value === "string"
        ? [{ stage: stage.index, field, node }]
        : [];
    }),
  );
}

/** Python's repr of a list of names: `['item', 'prev']`. */
function nameList(names: readonly string[]): string {
  return `[${names.map((n) => `'${n}'`).join(", ")}]`;
}

/**
 * The reporter of one stage predicate: an unbound name is worded as the reference words it
 * (`pipeline step '<id>' stage <i> has invalid 'when': Predicate '<expr>' references disallowed
 * name(s) ['prev']; allowed: ['item']`), and a type error on `prev` / `result` gets the hint for
 * the mistake the text binding invites (`prev['risk']` reads the text; the fields are in `prev_raw`).
 */
export function stageReporter(
  inner: Reporter,
  owner: { readonly step: string; readonly stage: number; readonly field: StagePredicateField },
  text: string,
  allowed: readonly string[],
): Reporter {
  const raw = /\bprev\b(?!_raw)/.test(text) ? "prev" : /\bresult\b(?!_raw)/.test(text) ? "result" : null;
  const quoted = text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text}'`;
  return {
    report(rule, input) {
      const unbound =
        rule.code === "EXPR-UNKNOWN-NAME" ? /^name '([^']+)' is not defined$/.exec(input.message) : null;
      if (unbound !== null) {
        const message = `pipeline step '${owner.step}' stage ${owner.stage} has invalid '${owner.field}': Predicate ${quoted} references disallowed name(s) ${nameList([unbound[1] ?? ""])}; allowed: ${nameList(allowed)}`;
        inner.report(rule, { ...input, message });
        return;
      }
      const hint =
        raw !== null && input.suggestion === undefined && rule.code.startsWith("EXPR-")
          ? {
              suggestion: `'${raw}' is the stage output as text (JSON unless it was a string); use ${raw}_raw to read its fields`,
            }
          : {};
      inner.report(rule, { ...input, ...hint });
    },
  };
}

/** Reports every `$` path of a stage predicate (none is bound there); true when one was found. */
export function reportStagePaths(
  reporter: Reporter,
  step: StepDecl & { readonly id: string },
  stage: number,
  field: StagePredicateField,
  node: ScalarNode,
  ast: Expr,
): boolean {
  let found = false;
  walk(ast, {
    enter(e) {
      if (e.kind !== "Path") return true;
      found = true;
      reporter.report(SPEC_PIPELINE_PREDICATE_PATH, {
        message: SPEC_PIPELINE_PREDICATE_PATH.message(step.id, stage, field, e.text),
        path: `flows.${step.flow.name}.steps.${step.id}.stages[${stage}].${field}`,
        range: node.mapRange(e.start, e.end),
        suggestion: "Read what the predicate needs from item, or move the test to the step's skip_if",
      });
      return false;
    },
  });
  return found;
}
