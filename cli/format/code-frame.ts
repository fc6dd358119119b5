// Human-readable diagnostics of `stratumc eval` with a one-line code frame (`stratumc check` uses
// source-frame.ts, which also lays out wide characters and multi-line ranges):
//
//   <source>:1:5: error: <message> [CODE]
//    1 | 'a' + 1
//      |     ^~~
//     help: <suggestion>
//
// Positions are 1-based lines and code-point columns (checker/location.ts computes them).
import { LineMap } from "../../checker/index";

type Severity = "error" | "warning" | "info";

export interface LocatedDiagnostic {
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  /** Half-open: one column after the last underlined character. */
  readonly endColumn: number;
  readonly suggestion?: string;
}

/** The whole block for one diagnostic, lines joined with "\n" (no trailing newline). */
export function formatDiagnostic(sourceName: string, text: string | LineMap, d: LocatedDiagnostic): string {
  const out = [`${sourceName}:${d.line}:${d.column}: ${d.severity}: ${d.message} [${d.code}]`];
  out.push(...codeFrame(typeof text === "string" ? new LineMap(text) : text, d));
  if (d.suggestion) out.push(`  help: ${d.suggestion}`);
  return out.join("\n");
}

/** Every diagnostic in order, each block followed by a newline. */
export function formatDiagnostics(
  sourceName: string,
  text: string,
  diagnostics: readonly LocatedDiagnostic[],
): string {
  const lines = new LineMap(text);
  return diagnostics.map((d) => `${formatDiagnostic(sourceName, lines, d)}\n`).join("");
}

/**
 * The source line of the diagnostic's start and an underline below it: `^` at the start column,
 * `~` up to the end column (or to the end of the line when the range continues on later lines).
 */
function codeFrame(lines: LineMap, d: LocatedDiagnostic): string[] {
  if (d.line < 1 || d.line > lines.lineCount) return [];
  const chars = Array.from(lines.lineText(d.line));
  const gutter = String(d.line);
  const pad = " ".repeat(gutter.length);
  const startIndex = Math.min(Math.max(d.column - 1, 0), chars.length);
  const endIndex = d.endLine > d.line ? chars.length : Math.min(Math.max(d.endColumn - 1, 0), chars.length);
  const width = Math.max(1, endIndex - startIndex);
  // Keep tabs in the indentation so that the caret lines up under the same character.
  const indent = chars
    .slice(0, startIndex)
    .map((c) => (c === "\t" ? "\t" : " "))
    .join("");
  return [` ${gutter} | ${displayLine(chars)}`.trimEnd(), ` ${pad} | ${indent}^${"~".repeat(width - 1)}`];
}

/** Control characters other than tab would garble a terminal: each is shown as one space. */
function displayLine(chars: readonly string[]): string {
  return chars
    .map((c) => {
      const cp = c.codePointAt(0) ?? 0;
      return cp < 0x20 && c !== "\t" ? " " : cp === 0x7f ? " " : c;
    })
    .join("");
}
