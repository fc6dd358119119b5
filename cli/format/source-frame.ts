// The code frame of `stratumc check`: the source line(s) of a range with the exact range underlined.
//
//    12 |     depends_on: [bulid]
//       |                  ^^^^^
//
// Columns are code points (docs/reference/language.md §9.2); the underline is laid out in terminal cells: tabs expand to the
// next multiple of 4, wide characters take two cells, combining marks none, control characters are
// shown as one space. A range over several lines shows its first line underlined to the end, `…`
// for the lines between, and its last line underlined from the first non-blank character. A line
// longer than the terminal budget is cut around the start of the range, marked with `…`.
import type { LineMap, LocatedRange } from "../../checker/index";
import { cellWidth } from "./width";

const TAB_STOP = 4;
/** Cells of source shown per line. */
export const MAX_LINE_CELLS = 120;
/** Cells kept before the start of the range when a long line is cut. */
const CONTEXT_BEFORE = 24;

export interface FrameRow {
  /** The 1-based line number; null for the `…` row between the lines of a long range. */
  readonly line: number | null;
  readonly source: string;
  /** Spaces then carets; "" when the row has no underline. */
  readonly marks: string;
}

interface Cell {
  readonly text: string;
  readonly col: number;
  readonly width: number;
}

export function frameRows(lines: LineMap, range: LocatedRange): FrameRow[] {
  if (range.line < 1 || range.line > lines.lineCount) return [];
  let endLine = Math.min(Math.max(range.end_line, range.line), lines.lineCount);
  let endColumn = range.end_line > lines.lineCount ? Number.POSITIVE_INFINITY : range.end_column;
  // A range that ends at the very start of a line ends, visibly, at the end of the line before.
  if (endLine > range.line && endColumn <= 1) {
    endLine--;
    endColumn = Number.POSITIVE_INFINITY;
  }
  const first = lines.lineText(range.line);
  if (endLine === range.line) {
    return [row(range.line, first, range.column - 1, Math.min(endColumn - 1, [...first].length))];
  }
  const rows = [row(range.line, first, range.column - 1, [...first].length)];
  if (endLine > range.line + 1) rows.push({ line: null, source: "…", marks: "" });
  const last = lines.lineText(endLine);
  const indent = [...last].findIndex((c) => c !== " " && c !== "\t");
  const lastEnd = Math.min(endColumn - 1, [...last].length);
  rows.push(row(endLine, last, indent < 0 ? 0 : Math.min(indent, lastEnd), lastEnd));
  return rows;
}

/** One source line with code points [from, to) underlined (at least one caret). */
function row(line: number, text: string, from: number, to: number): FrameRow {
  const cs = cells(text);
  const total = cs.length === 0 ? 0 : (cs[cs.length - 1]?.col ?? 0) + (cs[cs.length - 1]?.width ?? 0);
  const colOf = (i: number) => (i < cs.length ? (cs[i]?.col ?? total) : total + (i - cs.length));
  const start = colOf(Math.max(0, from));
  const end = Math.max(colOf(Math.max(from, to)), start + 1);
  let left = 0;
  let right = Math.max(total, end);
  if (right > MAX_LINE_CELLS) {
    left = start > MAX_LINE_CELLS - CONTEXT_BEFORE ? start - CONTEXT_BEFORE : 0;
    right = left + MAX_LINE_CELLS;
  }
  const shown = cs.filter((c) => c.col >= left && c.col + c.width <= right);
  const base = shown[0]?.col ?? start;
  const prefix = left > 0 ? "…" : "";
  const suffix = cs[cs.length - 1] !== shown[shown.length - 1] ? "…" : "";
  const offset = prefix.length + Math.max(0, start - base);
  const width = Math.max(1, Math.min(end, right) - start);
  return {
    line,
    source: `${prefix}${shown.map((c) => c.text).join("")}${suffix}`.trimEnd(),
    marks: `${" ".repeat(offset)}${"^".repeat(width)}`,
  };
}

function cells(text: string): Cell[] {
  const out: Cell[] = [];
  let col = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    let shown = ch;
    let width: number;
    if (ch === "\t") {
      width = TAB_STOP - (col % TAB_STOP);
      shown = " ".repeat(width);
    } else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      shown = " "; // a control character would garble the terminal
      width = 1;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      shown = "\ufffd"; // a lone surrogate cannot be printed
      width = 1;
    } else width = cellWidth(ch);
    out.push({ text: shown, col, width });
    col += width;
  }
  return out;
}
