// `--format github`: GitHub Actions workflow commands, one line per diagnostic:
// `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=<code>::<message>` (`::warning` and
// `::notice` for the other severities). Data escapes %, CR and LF; property values also : and ,.
import type { FileReport } from "./report";

const COMMAND = { error: "error", warning: "warning", info: "notice" } as const;

export function formatGithubReports(reports: readonly FileReport[]): string {
  let out = "";
  for (const r of reports) {
    for (const d of r.diagnostics) {
      const props = [
        `file=${escapeProperty(r.file)}`,
        `line=${d.line}`,
        `col=${d.column}`,
        `endLine=${d.end_line}`,
        `endColumn=${d.end_column}`,
        `title=${escapeProperty(d.code)}`,
      ].join(",");
      out += `::${COMMAND[d.severity]} ${props}::${escapeData(d.message)}\n`;
    }
  }
  return out;
}

export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}
