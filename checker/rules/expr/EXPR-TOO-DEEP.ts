// EXPR-TOO-DEEP (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";
import { kindPrefix } from "./text";

export const EXPR_TOO_DEEP = defineRule({
  code: "EXPR-TOO-DEEP",
  family: "expr-syntax",
  errorType: "ir_semantic_error",
  title:
    "Brackets, calls, subscripts, displays, comprehensions, unary operators and conditional expressions may nest at most 100 levels deep.",
  severity: "error",
  message: (kind: string | undefined) =>
    `${kindPrefix(kind, true)} is nested too deeply (the limit is 100 levels)`,
  doc: "Brackets, calls, subscripts, displays, comprehensions, unary operators and conditional expressions may nest at most 100 levels deep. Chains of binary and boolean operators do not count.",
  example: {
    bad: 'ensure:\n  - "((((…(result.ok)…))))"  # 101 nested brackets',
    good: 'ensure:\n  - "result.ok"',
  },
});
