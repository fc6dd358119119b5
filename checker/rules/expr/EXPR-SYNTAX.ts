// EXPR-SYNTAX (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const EXPR_SYNTAX = defineRule({
  code: "EXPR-SYNTAX",
  family: "expr-syntax",
  errorType: "ir_semantic_error",
  title: "The expression is not valid in the expression language: a Python-like subset with `$` paths.",
  severity: "error",
  message: (kind: string | undefined, expr: string, detail: string) =>
    kind === undefined
      ? `Cannot compile expression ${strRepr(expr)}: ${detail}`
      : `Cannot compile ${kind} expression ${strRepr(expr)}: ${detail}`,
  doc: "The expression is not valid in the expression language: a Python-like subset with `$` paths. The detail names the offending token, an unclosed bracket, a bad literal, or a Python construct that is not supported (lambda, f-strings, `**`, set displays, …). An expression with a syntax error gets no further checks.",
  example: {
    bad: 'ensure:\n  - "len(result.items > 0"',
    good: 'ensure:\n  - "len(result.items) > 0"',
  },
});
