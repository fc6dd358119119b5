// The checker's public diagnostics (exactly what `stratumc check` prints) as LSP diagnostics:
// same set, code, severity, message; ranges converted from 1-based code-point columns to 0-based
// UTF-16 characters; `related` as related information in the same document; a code description
// pointing at the code's section of docs/reference/rules.md.
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import type { Diagnostic } from "../checker/index";
import { ruleDocHref } from "../checker/index";
import type { PositionIndex } from "./positions";

const DIAGNOSTIC_SOURCE = "stratumc";

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
} as const;

export function toLspDiagnostic(d: Diagnostic, uri: string, positions: PositionIndex): LspDiagnostic {
  const out: LspDiagnostic = {
    range: positions.fromPublicRange(d),
    severity: SEVERITY[d.severity],
    code: d.code,
    codeDescription: { href: ruleDocHref(d.code) },
    source: DIAGNOSTIC_SOURCE,
    // The suggestion is part of what `stratumc check` shows (`= help: …` in its pretty format);
    // editors show only the message, so it follows on its own line, as in the terminal.
    message: d.suggestion === undefined ? d.message : `${d.message}\nhelp: ${d.suggestion}`,
  };
  if (d.related !== undefined && d.related.length > 0) {
    out.relatedInformation = d.related.map((r) => ({
      location: { uri, range: positions.fromPublicRange(r) },
      message: r.message,
    }));
  }
  return out;
}
