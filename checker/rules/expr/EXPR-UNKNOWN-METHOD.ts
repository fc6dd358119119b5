// EXPR-UNKNOWN-METHOD (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_UNKNOWN_METHOD = defineRule({
  code: "EXPR-UNKNOWN-METHOD",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title: "The value has no such method.",
  severity: "error",
  message: (typeName: string, name: string) => `'${typeName}' object has no attribute '${name}'`,
  doc: "The value has no such method. Strings, lists, tuples and dicts have the methods listed in the language reference; other kinds have none.",
  example: {
    bad: "ensure:\n  - \"result.title.uper() != ''\"",
    good: "ensure:\n  - \"result.title.upper() != ''\"",
  },
  fix: "Replaces the method name with the one method of the value's type close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break).",
});
