// The expression checker's rules (docs/reference/language.md §9.5.5) by code: every EXPR-* and
// SPEC-REF-MALFORMED diagnostic is built through `MESSAGES`; codes and texts are stable. Each rule
// is declared in its own file, checker/rules/expr/<CODE>.ts; this module only gathers them.
import { EXPR_ACCUMULATE_NOT_LIST } from "./rules/expr/EXPR-ACCUMULATE-NOT-LIST";
import { EXPR_ARITY } from "./rules/expr/EXPR-ARITY";
import { EXPR_COMPARISON_CONSTANT } from "./rules/expr/EXPR-COMPARISON-CONSTANT";
import { EXPR_DUNDER } from "./rules/expr/EXPR-DUNDER";
import { EXPR_ENUM_VALUE } from "./rules/expr/EXPR-ENUM-VALUE";
import { EXPR_IS_LITERAL } from "./rules/expr/EXPR-IS-LITERAL";
import { EXPR_LOWERCASE_LITERAL } from "./rules/expr/EXPR-LOWERCASE-LITERAL";
import { EXPR_METHOD_NOT_CALLED } from "./rules/expr/EXPR-METHOD-NOT-CALLED";
import { EXPR_NAME_UNAVAILABLE } from "./rules/expr/EXPR-NAME-UNAVAILABLE";
import { EXPR_SCORE_NOT_NUMBER } from "./rules/expr/EXPR-SCORE-NOT-NUMBER";
import { EXPR_SYNTAX } from "./rules/expr/EXPR-SYNTAX";
import { EXPR_TOO_DEEP } from "./rules/expr/EXPR-TOO-DEEP";
import { EXPR_TOO_LONG } from "./rules/expr/EXPR-TOO-LONG";
import { EXPR_TYPE } from "./rules/expr/EXPR-TYPE";
import { EXPR_UNKNOWN_FIELD } from "./rules/expr/EXPR-UNKNOWN-FIELD";
import { EXPR_UNKNOWN_FUNCTION } from "./rules/expr/EXPR-UNKNOWN-FUNCTION";
import { EXPR_UNKNOWN_METHOD } from "./rules/expr/EXPR-UNKNOWN-METHOD";
import { EXPR_UNKNOWN_NAME } from "./rules/expr/EXPR-UNKNOWN-NAME";
import { SPEC_REF_MALFORMED } from "./rules/expr/SPEC-REF-MALFORMED";

export { malformedReferenceMessage } from "./rules/expr/SPEC-REF-MALFORMED";
export { didYouMean, renameFix } from "./rules/suggestions";

export const MESSAGES = {
  "EXPR-SYNTAX": EXPR_SYNTAX,
  "EXPR-TOO-LONG": EXPR_TOO_LONG,
  "EXPR-TOO-DEEP": EXPR_TOO_DEEP,
  "EXPR-DUNDER": EXPR_DUNDER,
  "EXPR-UNKNOWN-NAME": EXPR_UNKNOWN_NAME,
  "EXPR-NAME-UNAVAILABLE": EXPR_NAME_UNAVAILABLE,
  "EXPR-UNKNOWN-FUNCTION": EXPR_UNKNOWN_FUNCTION,
  "EXPR-ARITY": EXPR_ARITY,
  "EXPR-UNKNOWN-FIELD": EXPR_UNKNOWN_FIELD,
  "EXPR-UNKNOWN-METHOD": EXPR_UNKNOWN_METHOD,
  "EXPR-TYPE": EXPR_TYPE,
  "EXPR-ENUM-VALUE": EXPR_ENUM_VALUE,
  "EXPR-ACCUMULATE-NOT-LIST": EXPR_ACCUMULATE_NOT_LIST,
  "EXPR-SCORE-NOT-NUMBER": EXPR_SCORE_NOT_NUMBER,
  "EXPR-COMPARISON-CONSTANT": EXPR_COMPARISON_CONSTANT,
  "EXPR-METHOD-NOT-CALLED": EXPR_METHOD_NOT_CALLED,
  "EXPR-IS-LITERAL": EXPR_IS_LITERAL,
  "EXPR-LOWERCASE-LITERAL": EXPR_LOWERCASE_LITERAL,
  "SPEC-REF-MALFORMED": SPEC_REF_MALFORMED,
} as const;

export type MessageCode = keyof typeof MESSAGES;
