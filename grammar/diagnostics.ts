// Diagnostics produced by the expression parser (docs/reference/language.md §9.5.5, docs/reference/language.md §10.15). Offsets are UTF-16
// offsets into the expression text; the checker turns them into full diagnostics with messages.

export type SyntaxDiagnostic =
  | { readonly code: "EXPR-SYNTAX"; readonly detail: string; readonly start: number; readonly end: number }
  | { readonly code: "EXPR-TOO-LONG"; readonly length: number; readonly start: number; readonly end: number }
  | { readonly code: "EXPR-TOO-DEEP"; readonly start: number; readonly end: number };

/** Maximum expression length in code points (docs/reference/language.md §10.15). */
export const MAX_EXPRESSION_LENGTH = 10_000;

/** Maximum nesting depth (docs/reference/language.md §10.15). */
export const MAX_EXPRESSION_DEPTH = 100;

export function syntaxError(detail: string, start: number, end: number): SyntaxDiagnostic {
  return { code: "EXPR-SYNTAX", detail, start, end };
}
