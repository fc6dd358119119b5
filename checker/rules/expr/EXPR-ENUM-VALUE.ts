// EXPR-ENUM-VALUE (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_ENUM_VALUE = defineRule({
  code: "EXPR-ENUM-VALUE",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title:
    "The field is an enumeration (its contract lists `values`), and the literal it is compared with (`==`, `!=`, or an element of an `in` display) is not one of them, so the comparison has a constant outcome.",
  severity: "error",
  message: (valueRepr: string, field: string, allowedRepr: string) =>
    `${valueRepr} is not an allowed value of field '${field}' (allowed: ${allowedRepr})`,
  doc: "The field is an enumeration (its contract lists `values`), and the literal it is compared with (`==`, `!=`, or an element of an `in` display) is not one of them, so the comparison has a constant outcome. Usually a typo in the literal.",
  example: {
    bad: "ensure:\n  - \"result.decision != 'aproved'\"  # values: [approved, rejected]",
    good: "ensure:\n  - \"result.decision != 'approved'\"",
  },
});
