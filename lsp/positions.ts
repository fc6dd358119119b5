// The one place where the language server converts positions. The services work on UTF-16
// offsets into the document text; the protocol speaks 0-based lines and UTF-16 characters; the
// checker's public diagnostics carry 1-based lines and 1-based code-point columns. Line breaks
// are `\n`, `\r\n` and `\r`, as in checker/location.ts and in the LSP.
import type { Position, Range } from "vscode-languageserver/node";
import type { LocatedRange } from "../checker/diagnostic";
import type { OffsetRange } from "../checker/services/types";

export class PositionIndex {
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

  /** The offset of a protocol position, clamped to its line (a character past the end is the end). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.starts.length) return this.text.length;
    const start = this.starts[position.line] ?? 0;
    return Math.min(start + Math.max(0, position.character), this.lineEnd(position.line));
  }

  /** The protocol position of an offset (clamped to the text; never inside a CRLF pair). */
  positionAt(offset: number): Position {
    let at = Math.max(0, Math.min(Number.isFinite(offset) ? offset : this.text.length, this.text.length));
    if (at > 0 && this.text.charCodeAt(at) === 10 && this.text.charCodeAt(at - 1) === 13) at--;
    const line = this.lineOf(at);
    return { line, character: at - (this.starts[line] ?? 0) };
  }

  range(range: OffsetRange): Range {
    return { start: this.positionAt(range.start), end: this.positionAt(Math.max(range.start, range.end)) };
  }

  /** A 1-based line and code-point column (the checker's public form) as a protocol position. */
  fromPublic(line: number, column: number): Position {
    const index = Math.max(0, Math.min(line - 1, this.starts.length - 1));
    const start = this.starts[index] ?? 0;
    const end = this.lineEnd(index);
    let at = start;
    // Step over column - 1 code points; a surrogate pair is one code point, two UTF-16 units.
    for (let n = 1; n < column && at < end; n++) {
      const c = this.text.charCodeAt(at);
      const pair = c >= 0xd800 && c <= 0xdbff && at + 1 < end && isLowSurrogate(this.text.charCodeAt(at + 1));
      at += pair ? 2 : 1;
    }
    return { line: index, character: at - start };
  }

  /** A public range (diagnostic, related information, fix edit) as a protocol range. */
  fromPublicRange(r: LocatedRange): Range {
    return { start: this.fromPublic(r.line, r.column), end: this.fromPublic(r.end_line, r.end_column) };
  }

  /** The offset just before the line break of a 0-based line. */
  private lineEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    let end = next - 1;
    if (this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  private lineOf(offset: number): number {
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

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
