// EXPR-DUNDER (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";
import { kindPrefix } from "./text";

export const EXPR_DUNDER = defineRule({
  code: "EXPR-DUNDER",
  family: "expr-name",
  errorType: "ir_semantic_error",
  title:
    "Names, attributes and keyword names containing `__` are rejected, as the reference implementation does: they are the usual way out of a Python sandbox.",
  severity: "error",
  message: (owner: string | undefined, kind: string | undefined) =>
    owner === undefined
      ? `${kindPrefix(kind, true)} must not contain dunder attributes`
      : `${owner} ${kind ?? "expression"} must not contain dunder attributes`,
  doc: "Names, attributes and keyword names containing `__` are rejected, as the reference implementation does: they are the usual way out of a Python sandbox. Strings may contain `__`.",
  example: {
    bad: "ensure:\n  - \"result.files.__class__.__name__ == 'list'\"",
    good: "ensure:\n  - \"'__init__.py' in result.files\"",
  },
});
