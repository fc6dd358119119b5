// The expression checker's catalogue entries (checker/messages.ts) as rule objects: one place,
// used by the catalogue and by the expression phase that reports them. It imports only the
// messages, so it can be loaded before or after the catalogue without an import cycle.
import { MESSAGES, type MessageCode } from "../messages";
import type { Family, RuleInfo } from "../rule";

function expressionFamily(code: MessageCode): Family {
  switch (code) {
    case "EXPR-SYNTAX":
    case "EXPR-TOO-LONG":
    case "EXPR-TOO-DEEP":
      return "expr-syntax";
    case "EXPR-UNKNOWN-NAME":
    case "EXPR-NAME-UNAVAILABLE":
    case "EXPR-UNKNOWN-FUNCTION":
    case "EXPR-DUNDER":
      return "expr-name";
    case "SPEC-REF-MALFORMED":
      return "reference";
    default:
      return "expr-type";
  }
}

export const EXPRESSION_RULES: readonly RuleInfo[] = (Object.keys(MESSAGES) as MessageCode[]).map((code) => {
  const entry = MESSAGES[code];
  return {
    code,
    severity: entry.severity,
    family: expressionFamily(code),
    errorType: "ir_semantic_error",
    title: entry.doc.split(/(?<=\.)\s/)[0] ?? entry.doc,
    doc: entry.doc,
    ...("example" in entry ? { example: entry.example } : {}),
  };
});

const BY_CODE = new Map(EXPRESSION_RULES.map((r) => [r.code, r]));

/** The rule of an expression-checker diagnostic code; an unknown code (none exist) is an error. */
export function exprRule(code: string): RuleInfo {
  return (
    BY_CODE.get(code) ?? {
      code,
      severity: "error",
      family: "expr-type",
      errorType: "ir_semantic_error",
      title: code,
      doc: code,
    }
  );
}
