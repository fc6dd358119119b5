// `stratumc test --format pretty`: per file its name, then ✓ or ✗ and the name of each test; a
// failing test shows `file:line:col: <first differing fact>`, the expected and actual values and
// the code frame of the place in the test file. A file with errors shows its diagnostics as
// `check` does. One summary line at the end.
import type { LineMap } from "../../checker/index";
import { formatPrettyDiagnostic } from "../format/pretty";
import { frameRows } from "../format/source-frame";
import type { Style } from "../format/style";
import type { TestedFile, TestRun } from "./run";

export function formatTestPretty(run: TestRun, style: Style): string {
  let out = "";
  for (const f of run.files) {
    out += `${style.bold(f.file)}\n`;
    for (const d of f.diagnostics) out += `${indent(formatPrettyDiagnostic(f.file, f.lines, d, style))}\n`;
    for (const o of f.outcomes) {
      if (o.failure === null) {
        out += `  ${style.ok("✓")} ${o.name}\n`;
        continue;
      }
      out += `  ${style.error("✗")} ${o.name}\n`;
      out += `${indent(failureBlock(f, o.failure, style), 6)}\n`;
    }
  }
  return out + summary(run, style);
}

function failureBlock(
  f: TestedFile,
  failure: NonNullable<TestedFile["outcomes"][number]["failure"]>,
  style: Style,
): string {
  const lines = f.lines as LineMap;
  const at = lines.location(failure.range.start, failure.range.end);
  const out = [`${style.bold(`${f.file}:${at.line}:${at.column}:`)} ${failure.message}`];
  if (failure.expected !== undefined) out.push(`${style.ok("- expected:")} ${failure.expected}`);
  if (failure.actual !== undefined) out.push(`${style.error("+ actual:  ")} ${failure.actual}`);
  const range = { line: at.line, column: at.column, end_line: at.endLine, end_column: at.endColumn };
  for (const r of frameRows(lines, range)) {
    const number = r.line === null ? "" : String(r.line);
    out.push(`${style.gutter(` ${number.padStart(4)} |`)} ${r.source}`.trimEnd());
    if (r.marks !== "") out.push(`${style.gutter(`      |`)} ${r.marks.replace(/\^+/, style.error)}`);
  }
  return out.join("\n");
}

function indent(text: string, by = 4): string {
  const pad = " ".repeat(by);
  return text
    .split("\n")
    .map((l) => (l === "" ? l : pad + l))
    .join("\n");
}

function summary(run: TestRun, style: Style): string {
  const broken = run.broken > 0 ? `, ${run.broken} file(s) with errors not run` : "";
  const text = `${run.passed} passed, ${run.failed} failed${broken} (${run.files.length} file(s))`;
  return `${run.failed > 0 || run.broken > 0 ? style.error(text) : style.ok(text)}\n`;
}
