// Expression diagnostics (UTF-16 offsets into the expression) → located diagnostics for printing.
import type { ExprDiagnostic } from "../../checker/index";
import { LineMap } from "../../checker/index";
import type { LocatedDiagnostic } from "./code-frame";

export function locateExprDiagnostics(
  text: string,
  diagnostics: readonly ExprDiagnostic[],
): LocatedDiagnostic[] {
  const lines = new LineMap(text);
  return diagnostics.map((d) => ({
    severity: d.severity,
    code: d.code,
    message: d.message,
    ...lines.location(d.start, d.end),
    ...(d.suggestion === undefined ? {} : { suggestion: d.suggestion }),
  }));
}
