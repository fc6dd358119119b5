// EXPR-TYPE (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";
import { ALWAYS_FAILS, FAILS_FROM } from "./text";

export const EXPR_TYPE = defineRule({
  code: "EXPR-TYPE",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title:
    "The operation raises a TypeError (or AttributeError) for every value its operands can have, according to their types: ordering a string against a number, len() of a number, concatenating str and int, subscripting a number, iterating a number, calling a non-method value.",
  severity: "error",
  message: (pythonText: string, failsFrom?: 1 | 2) =>
    `${pythonText}${failsFrom === undefined ? ALWAYS_FAILS : FAILS_FROM[failsFrom]}`,
  mustCall: (name: string) => `builtin function '${name}' must be called${ALWAYS_FAILS}`,
  doc: "The operation raises a TypeError (or AttributeError) for every value its operands can have, according to their types: ordering a string against a number, len() of a number, concatenating str and int, subscripting a number, iterating a number, calling a non-method value. Operands of unknown type (`any`), and unions with at least one working member, are never reported.",
  example: {
    bad: 'ensure:\n  - "len(result.score) > 0"  # score: {type: number}',
    good: 'ensure:\n  - "result.score > 0"',
  },
});
