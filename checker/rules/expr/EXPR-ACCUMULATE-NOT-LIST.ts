// EXPR-ACCUMULATE-NOT-LIST (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const EXPR_ACCUMULATE_NOT_LIST = defineRule({
  code: "EXPR-ACCUMULATE-NOT-LIST",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title:
    "An accumulate expression must produce the list of items found by the iteration; its static type has no list member.",
  severity: "error",
  message: (expr: string, type: string) =>
    `accumulate expression ${strRepr(expr)} does not evaluate to a list (it evaluates to ${type})`,
  doc: "An accumulate expression must produce the list of items found by the iteration; its static type has no list member. Point it at a list field of the result (`result.findings`), build a list with a comprehension, or wrap a single value in a list display (`[result.finding]`).",
  example: {
    bad: 'max_iterations: 5\naccumulate: "result.found"  # found: {type: integer}',
    good: 'max_iterations: 5\naccumulate: "result.findings"  # findings: {type: array}',
  },
});
