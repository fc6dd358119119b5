// EXPR-IS-LITERAL (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_IS_LITERAL = defineRule({
  code: "EXPR-IS-LITERAL",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title:
    "`is` compares identity; with a number or string literal the result depends on object identity, not value.",
  severity: "warning",
  message: (op: "is" | "is not") =>
    op === "is" ? `"is" with a literal. Did you mean "=="?` : `"is not" with a literal. Did you mean "!="?`,
  fixDescription: (op: "is" | "is not") =>
    op === "is" ? "Replace 'is' with '=='" : "Replace 'is not' with '!='",
  doc: "`is` compares identity; with a number or string literal the result depends on object identity, not value. Use `==` (or `!=`). `is None`, `is True` and `is False` are fine.",
  example: {
    bad: "ensure:\n  - \"result.status is 'ok'\"",
    good: "ensure:\n  - \"result.status == 'ok'\"",
  },
  fix: "Replaces the operator `is` with `==` (and `is not` with `!=`), when the operator is written literally in the scalar (no escape or folded line break).",
});
