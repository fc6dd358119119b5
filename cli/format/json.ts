// `--format json`: an array of `{file, valid, errors, warnings}` with the docs/reference/language.md §9.1 diagnostic objects,
// 2-space indentation (docs/reference/runtime.md §21.2). Each diagnostic also carries `help_uri`, the address of
// its code's section of docs/reference/rules.md (the LSP's code description, SARIF's `helpUri`). The MCP
// tool `stratum_validate` keeps the plain docs/reference/language.md §9.1 objects.
import type { Diagnostic } from "../../checker/index";
import { ruleDocHref } from "../../checker/index";
import type { FileReport } from "./report";

/** A docs/reference/language.md §9.1 diagnostic as the JSON format prints it. */
type JsonDiagnostic = Diagnostic & { readonly help_uri: string };

function jsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  return { ...d, help_uri: ruleDocHref(d.code) };
}

export function formatJsonReports(reports: readonly FileReport[]): string {
  const files = reports.map((r) => ({
    file: r.file,
    valid: r.valid,
    errors: r.errors.map(jsonDiagnostic),
    warnings: r.warnings.map(jsonDiagnostic),
  }));
  return `${JSON.stringify(files, null, 2)}\n`;
}
