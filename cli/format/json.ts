// `--format json`: an array of `{file, valid, errors, warnings}` with the §9.1 diagnostic objects,
// 2-space indentation (runtime.md §21.2).
import type { FileReport } from "../check/report";

export function formatJsonReports(reports: readonly FileReport[]): string {
  const files = reports.map((r) => ({
    file: r.file,
    valid: r.valid,
    errors: r.errors,
    warnings: r.warnings,
  }));
  return `${JSON.stringify(files, null, 2)}\n`;
}
