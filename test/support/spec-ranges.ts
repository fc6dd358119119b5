// Checks that every location of a public diagnostic (its own range, `related` ranges and `fix`
// edits) lies inside the text it was computed for (docs/reference/language.md §0, docs/reference/language.md §9.1: 1-based lines, 1-based
// code-point columns, half-open ranges, line breaks \n, \r\n or \r).

import type { Diagnostic, LocatedRange } from "../../checker/diagnostic";

/** Code-point length of every line of `text`. */
function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((line) => [...line].length);
}

function rangeProblem(lengths: readonly number[], r: LocatedRange): string | null {
  const inside = (line: number, column: number): boolean => {
    if (!Number.isInteger(line) || !Number.isInteger(column)) return false;
    const length = lengths[line - 1];
    return line >= 1 && length !== undefined && column >= 1 && column <= length + 1;
  };
  const at = `${r.line}:${r.column}-${r.end_line}:${r.end_column}`;
  if (!inside(r.line, r.column)) return `start of ${at} is outside the text`;
  if (!inside(r.end_line, r.end_column)) return `end of ${at} is outside the text`;
  if (r.end_line < r.line || (r.end_line === r.line && r.end_column < r.column))
    return `${at} ends before it starts`;
  return null;
}

function before(a: LocatedRange, b: LocatedRange): boolean {
  return a.end_line < b.line || (a.end_line === b.line && a.end_column <= b.column);
}

/** Every problem with the locations of `diagnostics` in `text` (empty when all are fine). */
export function locationProblems(text: string, diagnostics: readonly Diagnostic[]): string[] {
  const lengths = lineLengths(text);
  const problems: string[] = [];
  for (const d of diagnostics) {
    const name = `${d.code} at ${JSON.stringify(d.path)}`;
    const own = rangeProblem(lengths, d);
    if (own !== null) problems.push(`${name}: ${own}`);
    for (const r of d.related ?? []) {
      const p = rangeProblem(lengths, r);
      if (p !== null) problems.push(`${name}, related ${JSON.stringify(r.message)}: ${p}`);
    }
    const edits = d.fix?.edits ?? [];
    edits.forEach((e, i) => {
      const p = rangeProblem(lengths, e);
      if (p !== null) problems.push(`${name}, fix edit ${i}: ${p}`);
      const previous = edits[i - 1];
      if (previous !== undefined && !before(previous, e)) {
        problems.push(`${name}, fix edit ${i}: overlaps or precedes edit ${i - 1}`);
      }
    });
  }
  return problems;
}

/** Problems with the shape of a check result: sorting, validity, severities (docs/reference/language.md §9.1). */
export function resultShapeProblems(result: {
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
}): string[] {
  const problems: string[] = [];
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (result.valid !== (errors.length === 0))
    problems.push(`valid is ${result.valid} with ${errors.length} errors`);
  if (result.errors.length !== errors.length || result.errors.some((d) => d.severity !== "error")) {
    problems.push("errors is not the error-severity diagnostics");
  }
  if (result.warnings.some((d) => d.severity === "error")) problems.push("warnings holds an error");
  if (result.errors.length + result.warnings.length !== result.diagnostics.length) {
    problems.push("errors + warnings do not add up to diagnostics");
  }
  for (let i = 1; i < result.diagnostics.length; i++) {
    const a = result.diagnostics[i - 1];
    const b = result.diagnostics[i];
    if (a === undefined || b === undefined) continue;
    const order =
      a.line - b.line || a.column - b.column || a.end_line - b.end_line || a.end_column - b.end_column;
    if (order > 0) problems.push(`diagnostics ${i - 1} and ${i} are not sorted by position`);
  }
  for (const d of result.diagnostics) {
    if (d.success !== false) problems.push(`${d.code}: success is not false`);
    if (typeof d.message !== "string" || d.message === "") problems.push(`${d.code}: empty message`);
    if (typeof d.path !== "string") problems.push(`${d.code}: path is not a string`);
  }
  return problems;
}
