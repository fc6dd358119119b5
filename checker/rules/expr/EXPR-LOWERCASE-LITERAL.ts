// EXPR-LOWERCASE-LITERAL (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_LOWERCASE_LITERAL = defineRule({
  code: "EXPR-LOWERCASE-LITERAL",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title: "Lowercase true, false or null is not portable to the reference implementation.",
  severity: "warning",
  message: (word: string, canonical: string, kind: string | undefined) =>
    `'${word}' is not portable in ${kind ?? "these"} expressions: stratum-mcp 0.2.50 raises "name '${word}' is not defined" on every run; write '${canonical}'`,
  fixDescription: (word: string, canonical: string) => `Replace '${word}' with '${canonical}'`,
  doc: "Lowercase true, false or null is not portable to the reference implementation. This implementation reads them as True, False and None in every expression, but stratum-mcp 0.2.50 knows the lowercase words only in skip_if: in ensure, exit_criterion, accumulate and accumulate_key it raises NameError, so a shared spec fails every run there (an ensure becomes a violation, an exit_criterion never ends the loop). Write Python's True, False and None; the fix replaces the word.",
  example: {
    bad: 'ensure:\n  - "result.ok == true"',
    good: 'ensure:\n  - "result.ok == True"',
  },
  fix: "Replaces the lowercase word with Python's spelling (true with True, false with False, null with None), when the word is written literally in the scalar (no escape or folded line break); offered in every position but skip_if.",
});
