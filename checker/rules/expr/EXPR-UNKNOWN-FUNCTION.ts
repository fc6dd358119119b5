// EXPR-UNKNOWN-FUNCTION (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_UNKNOWN_FUNCTION = defineRule({
  code: "EXPR-UNKNOWN-FUNCTION",
  family: "expr-name",
  errorType: "ir_semantic_error",
  title:
    "Only the builtins of the expression language can be called (len, bool, int, float, str, min, max, any, all, sum, abs, round, sorted, file_exists, file_contains, no_file_conflicts, plan_completion, vocabulary_compliance).",
  severity: "error",
  message: (name: string) => `unknown function '${name}'`,
  doc: "Only the builtins of the expression language can be called (len, bool, int, float, str, min, max, any, all, sum, abs, round, sorted, file_exists, file_contains, no_file_conflicts, plan_completion, vocabulary_compliance). Other Python builtins (range, isinstance, hasattr, …) do not exist.",
  example: {
    bad: 'ensure:\n  - "file_exist(result.artifact)"',
    good: 'ensure:\n  - "file_exists(result.artifact)"',
  },
  fix: "Replaces the callee with the one builtin function close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break).",
});
