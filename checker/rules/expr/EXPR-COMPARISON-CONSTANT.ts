// EXPR-COMPARISON-CONSTANT (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_COMPARISON_CONSTANT = defineRule({
  code: "EXPR-COMPARISON-CONSTANT",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title:
    "Both operands have fully known types that can never be equal (for example a string and a number, or the namespace `result` and a dict display), so the comparison has a constant result.",
  severity: "warning",
  message: (op: "==" | "!=", left: string, right: string) =>
    `comparison is always ${op === "==" ? "False" : "True"}: ${left} and ${right} values are never equal`,
  doc: "Both operands have fully known types that can never be equal (for example a string and a number, or the namespace `result` and a dict display), so the comparison has a constant result. In an ensure or exit_criterion that means a check that always passes or never does. Usually the literal has the wrong type (`result.count == '0'`); compare values of the same kind, converting with int() or str() where needed.",
  example: {
    bad: 'ensure:\n  - "result.status != 0"  # status: {type: string}',
    good: "ensure:\n  - \"result.status != 'failed'\"",
  },
});
