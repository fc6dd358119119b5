// EXPR-UNKNOWN-FIELD (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_UNKNOWN_FIELD = defineRule({
  code: "EXPR-UNKNOWN-FIELD",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title: "The expression reads a field (`.f`, `['f']` or `.get('f')`) that the contract does not declare.",
  severity: "error",
  message: (contract: string, field: string) => `contract '${contract}' has no field '${field}'`,
  doc: "The expression reads a field (`.f`, `['f']` or `.get('f')`) that the contract does not declare. Results may carry extra keys at run time, but reading an undeclared field is reported so that typos are caught; declare the field in the contract (or in the step's output_schema).",
  example: {
    bad: 'ensure:\n  - "result.confidnce > 0.7"',
    good: 'ensure:\n  - "result.confidence > 0.7"',
  },
  fix: "Replaces the field name with the one field of the contract close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break).",
});
