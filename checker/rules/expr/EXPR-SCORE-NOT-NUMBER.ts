// EXPR-SCORE-NOT-NUMBER (docs/reference/language.md §11.2): a rule of the expression checker, built
// through MESSAGES (checker/messages.ts) wherever the expression phase reports it.
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const EXPR_SCORE_NOT_NUMBER = defineRule({
  code: "EXPR-SCORE-NOT-NUMBER",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title: "A score_expr must give a number; its static type has no int or float member.",
  severity: "error",
  message: (expr: string, type: string) =>
    `score_expr ${strRepr(expr)} does not evaluate to a number (it evaluates to ${type})`,
  doc: "A score_expr ranks the iterations of a loop, so it must give an int or a float. A bool is not a score: at run time a True or False (like a string or None) scores nothing and the history entry gets a score_error instead. Read a numeric field of the result (`result.coverage`), or turn a check into a number explicitly (`1 if result.passed else 0`).",
  example: {
    bad: 'max_iterations: 5\nscore_expr: "result.coverage > 0.8"',
    good: 'max_iterations: 5\nscore_expr: "result.coverage"',
  },
});
