// Offsets → lines and columns (docs/reference/language.md §9.1, docs/reference/language.md §9.2): syntax trees and diagnostics carry UTF-16
// offsets (what JS strings index); everything presented to users is 1-based lines and 1-based
// columns counted in code points. Line breaks are `\n`, `\r\n` or `\r`.

export interface Position {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in code points. */
  readonly column: number;
}

export interface Location {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  /** Half-open: one column after the last character of the range. */
  readonly endColumn: number;
}

/** Line-start table of one text, for converting many offsets of the same text. */
export class LineMap {
  /** UTF-16 offset of the first character of each line. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The 1-based line and code-point column of a UTF-16 offset (clamped to the text). */
  position(offset: number): Position {
    let at = Math.max(0, Math.min(Number.isFinite(offset) ? offset : this.text.length, this.text.length));
    // Inside a CRLF pair: the position is the end of the line (the break is one character).
    if (at > 0 && this.text.charCodeAt(at) === 10 && this.text.charCodeAt(at - 1) === 13) at--;
    const index = this.lineIndexOf(at);
    const start = this.starts[index] ?? 0;
    return { line: index + 1, column: 1 + codePointsBetween(this.text, start, at) };
  }

  /** The location of the half-open UTF-16 range [start, end). */
  location(start: number, end: number): Location {
    const from = this.position(start);
    const to = this.position(Math.max(start, end));
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  }

  /** The text of a 1-based line, without its line break ("" when out of range). */
  lineText(line: number): string {
    const start = this.starts[line - 1];
    if (start === undefined) return "";
    return this.text.slice(start, this.lineEnd(line - 1));
  }

  /** The UTF-16 offset where a 0-based line starts (the text's end beyond the last line). */
  lineStart(index: number): number {
    return this.starts[index] ?? this.text.length;
  }

  /** The UTF-16 offset just before the line break of a 0-based line. */
  lineEnd(index: number): number {
    const next = this.starts[index + 1];
    if (next === undefined) return this.text.length;
    let end = next - 1; // the break itself: \n or \r
    if (this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** The 0-based line that contains a UTF-16 offset. */
  lineIndexOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** One-off conversion; use a LineMap when converting several offsets of one text. */
export function offsetToPosition(text: string, offset: number): Position {
  return new LineMap(text).position(offset);
}

/** One-off conversion of a half-open UTF-16 range to a location. */
export function rangeToLocation(text: string, start: number, end: number): Location {
  return new LineMap(text).location(start, end);
}

/** Code points in text[from, to): a surrogate pair counts once, a lone surrogate counts once. */
function codePointsBetween(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
