// RuleInfo objects for the diagnostics of the expression checker (checker/messages.ts), used to
// report them into the pipeline. They are built from the same entries as the catalogue's (and a
// test checks that code, severity, family and error type agree). Importing the catalogue here
// instead would close an import cycle (catalogue → spec-expr/index → catalogue) that breaks
// whenever this module is loaded first.
import { MESSAGES, type MessageCode } from "../messages";
import type { Family, RuleInfo } from "../rule";

function familyOf(code: MessageCode): Family {
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

const RULES = new Map<string, RuleInfo>();
for (const code of Object.keys(MESSAGES) as MessageCode[]) {
  const entry = MESSAGES[code];
  RULES.set(code, {
    code,
    severity: entry.severity,
    family: familyOf(code),
    errorType: "ir_semantic_error",
    title: entry.doc.split(/(?<=\.)\s/)[0] ?? entry.doc,
    doc: entry.doc,
  });
}

/** The rule of an expression-checker diagnostic code; unknown codes (none exist) are errors. */
export function exprRule(code: string): RuleInfo {
  return (
    RULES.get(code) ?? {
      code,
      severity: "error",
      family: "expr-type",
      errorType: "ir_semantic_error",
      title: code,
      doc: code,
    }
  );
}
