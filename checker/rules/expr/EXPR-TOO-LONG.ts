// EXPR-TOO-LONG (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";
import { kindPrefix } from "./text";

export const EXPR_TOO_LONG = defineRule({
  code: "EXPR-TOO-LONG",
  family: "expr-syntax",
  errorType: "ir_semantic_error",
  title:
    "Expressions are limited to 10,000 code points so that validation and evaluation stay fast and bounded.",
  severity: "error",
  message: (kind: string | undefined, length: number) =>
    `${kindPrefix(kind, true)} is too long (${length} characters; the limit is 10000)`,
  doc: "Expressions are limited to 10,000 code points so that validation and evaluation stay fast and bounded. Move the logic into the step (report a computed field) instead of writing it inline.",
  example: {
    bad: "ensure:  # an expression of over 10,000 characters\n  - >-\n    result.slug not in ['r0001', 'r0002',\n    'r0003', …, 'r1110']",
    good: 'ensure:\n  - "not result.slug_reserved"  # a field the step computes',
  },
});
