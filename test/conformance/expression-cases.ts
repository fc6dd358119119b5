// The conformance table of the expression language: every construct of docs/reference/language.md §10.3, every
// builtin (docs/reference/language.md §10.9) and method (docs/reference/language.md §10.10), the examples of docs/reference/language.md §10.5 and docs/reference/language.md §10.8.11 and the static codes
// of docs/reference/language.md §9.5.5 that apply to expressions. Value and run-time error expectations are re-checked
// against CPython (test/differential/oracle.py) except where a case names a divergence.

import type { ExpressionCase } from "./case-types";
import { BUILTIN_CASES } from "./cases/builtins";
import { EXAMPLE_CASES } from "./cases/examples";
import { GRAMMAR_CASES } from "./cases/grammar";
import { LEXICAL_CASES } from "./cases/lexical";
import { METHOD_CASES } from "./cases/methods";
import { SEMANTICS_CASES } from "./cases/semantics";
import { STATIC_CASES } from "./cases/static";

export type { ExpressionCase } from "./case-types";

export const EXPRESSION_CASE_GROUPS: Readonly<Record<string, readonly ExpressionCase[]>> = {
  lexical: LEXICAL_CASES,
  grammar: GRAMMAR_CASES,
  semantics: SEMANTICS_CASES,
  builtins: BUILTIN_CASES,
  methods: METHOD_CASES,
  static: STATIC_CASES,
  examples: EXAMPLE_CASES,
};
