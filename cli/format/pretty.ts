// `--format pretty`: for every diagnostic a header `file:line:col: severity: message [code]`, the
// code frame, `  = help: <suggestion>` and one `  = note: file:line:col: <message>` per related
// location, then a blank line; at the end one summary line. A clean file prints nothing of its own
// (the output of a passing pre-commit run is the summary line alone).
import type { Diagnostic, LineMap } from "../../checker/index";
import type { FileReport, Totals } from "./report";
import { frameRows } from "./source-frame";
import { type Style, severityPaint } from "./style";

/** Every diagnostic of every report, each block followed by a blank line. */
export function formatPrettyReports(reports: readonly FileReport[], style: Style): string {
  let out = "";
  for (const report of reports) {
    for (const d of report.diagnostics)
      out += `${formatPrettyDiagnostic(report.file, report.lines, d, style)}\n\n`;
  }
  return out;
}

export function formatPrettyDiagnostic(
  file: string,
  lines: LineMap | null,
  d: Diagnostic,
  style: Style,
): string {
  const paint = severityPaint(style, d.severity);
  const out = [
    `${style.bold(`${file}:${d.line}:${d.column}:`)} ${paint(d.severity)}: ${style.bold(d.message)} ${style.dim(`[${d.code}]`)}`,
  ];
  if (lines !== null) {
    const rows = frameRows(lines, d);
    const gutter = Math.max(...rows.map((r) => String(r.line ?? "").length), 1);
    for (const r of rows) {
      const number = r.line === null ? "" : String(r.line);
      out.push(`${style.gutter(` ${number.padStart(gutter)} |`)} ${r.source}`.trimEnd());
      if (r.marks !== "")
        out.push(`${style.gutter(` ${" ".repeat(gutter)} |`)} ${r.marks.replace(/\^+/, paint)}`);
    }
  }
  if (d.suggestion !== undefined) out.push(`  = ${style.help("help")}: ${d.suggestion}`);
  for (const r of d.related ?? []) {
    out.push(`  = ${style.bold("note")}: ${file}:${r.line}:${r.column}: ${r.message}`);
  }
  return out.join("\n");
}

/** `<e> error(s), <w> warning(s) in <n> file(s)` (docs/reference/runtime.md §21.2 wording). */
export function formatSummary(t: Totals, style: Style): string {
  const notes = t.notes > 0 ? `, ${t.notes} note(s)` : "";
  const text = `${t.errors} error(s), ${t.warnings} warning(s)${notes} in ${t.files} file(s)`;
  const paint = t.errors > 0 ? style.error : t.warnings > 0 ? style.warning : style.ok;
  return `${paint(text)}\n`;
}
