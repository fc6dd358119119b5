// The bare text of a parse error (without the "Cannot compile … expression" frame of EXPR-SYNTAX).
import { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, type SyntaxDiagnostic } from "../../grammar/index";

export function syntaxDetail(d: SyntaxDiagnostic): string {
  switch (d.code) {
    case "EXPR-SYNTAX":
      return d.detail;
    case "EXPR-TOO-LONG":
      return `expression is too long (${d.length} characters; the limit is ${MAX_EXPRESSION_LENGTH})`;
    case "EXPR-TOO-DEEP":
      return `expression is nested too deeply (the limit is ${MAX_EXPRESSION_DEPTH} levels)`;
  }
}
