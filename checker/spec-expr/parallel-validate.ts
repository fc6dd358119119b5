// The `validate` expression of a parallel_dispatch step (a stratumc extension,
// docs/design/concurrency-constructs.md §2): checked like an ensure expression (EXPR-* rules, `$`
// references as for the step's ensure) but with the names of the judged tasks bound instead of
// `result`: `results` (the completed tasks' results, typed by member_contract), `tasks`,
// `completed` and `failed` (task ids).
import { ANY, dictOf, listOf, recordOf, STR, type Type } from "../../stdlib/types/type";
import type { ExprEnvironment } from "../expr/types";
import type { StepDecl } from "../model/types";
import type { ScalarNode } from "../yaml/nodes";
import { resultBinding } from "./environment";
import { kindExpressions } from "./kind-expressions";
import type { Records } from "./result-type";

/** The type of one element of `results`: `ns[T]` for the member contract's record T, else `any`. */
export function memberResultType(step: StepDecl, records: Records): Type {
  const name = step.string("member_contract")?.value;
  const record = name === undefined || name === "" ? undefined : records.get(name);
  return record === undefined ? ANY : resultBinding(recordOf(record));
}

/** The names a validate expression sees (docs/reference/runtime.md §23.3). */
export function validateEnvironment(
  member: Type,
  pathType: ExprEnvironment["pathType"],
  owner: string,
): ExprEnvironment {
  const names = new Map<string, Type>([
    ["results", listOf(member)],
    ["tasks", listOf(dictOf(STR, ANY))],
    ["completed", listOf(STR)],
    ["failed", listOf(STR)],
  ]);
  return {
    kind: "ensure",
    names,
    ...(pathType !== undefined ? { pathType } : {}),
    owner,
  };
}

/** The scalar of a parallel_dispatch step's validate (on other kinds: SPEC-PARALLEL-ONLY-KEY). */
export function validateNode(step: StepDecl): ScalarNode | null {
  if (!kindExpressions(step).includes("validate")) return null;
  const field = step.string("validate");
  return field === null || field.entry.value.kind !== "scalar" ? null : field.entry.value;
}
