// EXPR-ARITY (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_ARITY = defineRule({
  code: "EXPR-ARITY",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title:
    "The call passes the wrong number of arguments or an unknown keyword argument; the message is the TypeError Python would raise.",
  severity: "error",
  message: (pythonText: string) => pythonText,
  doc: "The call passes the wrong number of arguments or an unknown keyword argument; the message is the TypeError Python would raise. Parameters are positional only except the documented keywords (default of min/max, reverse of sorted, start of sum, ndigits of round, sep/maxsplit of str.split).",
  example: {
    bad: 'ensure:\n  - "len(result.tags, 1) > 0"',
    good: 'ensure:\n  - "len(result.tags) > 0"',
  },
});
