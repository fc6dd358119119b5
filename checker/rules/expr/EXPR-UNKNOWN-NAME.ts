// EXPR-UNKNOWN-NAME (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_UNKNOWN_NAME = defineRule({
  code: "EXPR-UNKNOWN-NAME",
  family: "expr-name",
  errorType: "ir_semantic_error",
  title:
    "The name is not a comprehension variable, a name bound in this expression position (`result`, `item`, the accumulator names) or a builtin.",
  severity: "error",
  message: (name: string) => `name '${name}' is not defined`,
  doc: "The name is not a comprehension variable, a name bound in this expression position (`result`, `item`, the accumulator names) or a builtin. A close match is suggested when there is one.",
  example: {
    bad: 'ensure:\n  - "reslt.score >= 0.5"',
    good: 'ensure:\n  - "result.score >= 0.5"',
  },
  fix: "Replaces the name with the one name in scope close to it (a comprehension variable, a name bound in the position such as result, or a builtin; a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break).",
});
