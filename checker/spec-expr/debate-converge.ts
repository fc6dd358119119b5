// The `converge` expression of a debate step (stratumc's extension, docs/reference/language.md §6.7): checked
// like an ensure expression (EXPR-* rules, `$` references as for the step's ensure) but with the
// debate's names bound instead of `result`: `round` (this round's arguments, typed by
// argument_contract), `history` (every round so far, this one included) and `round_number`.
import { ANY, INT, listOf, recordOf, type Type } from "../../stdlib/types/type";
import type { ExprEnvironment } from "../expr/types";
import type { StepDecl } from "../model/types";
import type { ScalarNode } from "../yaml/nodes";
import { resultBinding } from "./environment";
import { kindExpressions } from "./kind-expressions";
import type { Records } from "./result-type";

/** The type of one argument: `ns[T]` for the argument contract's record T, else `any`. */
export function argumentType(step: StepDecl, records: Records): Type {
  const name = step.string("argument_contract")?.value;
  const record = name === undefined || name === "" ? undefined : records.get(name);
  return record === undefined ? ANY : resultBinding(recordOf(record));
}

/** The names a converge expression sees (docs/reference/runtime.md §23.15). */
export function convergeEnvironment(
  argument: Type,
  pathType: ExprEnvironment["pathType"],
  owner: string,
): ExprEnvironment {
  const names = new Map<string, Type>([
    ["round", listOf(argument)],
    ["history", listOf(listOf(argument))],
    ["round_number", INT],
  ]);
  return { kind: "ensure", names, ...(pathType !== undefined ? { pathType } : {}), owner };
}

/** The scalar of a debate step's converge (on other kinds: SPEC-DEBATE-ONLY-KEY). */
export function convergeNode(step: StepDecl): ScalarNode | null {
  if (!kindExpressions(step).includes("converge")) return null;
  const field = step.string("converge");
  return field === null || field.entry.value.kind !== "scalar" ? null : field.entry.value;
}
