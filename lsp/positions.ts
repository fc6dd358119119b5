// The one place where the language server converts positions. The services work on UTF-16
// offsets into the document text; the protocol speaks 0-based lines and UTF-16 characters; the
// checker's public diagnostics carry 1-based lines and 1-based code-point columns. Line breaks
// are `\n`, `\r\n` and `\r`, as in checker/location.ts and in the LSP.
import type { Position, Range } from "vscode-languageserver/node";
import type { LocatedRange, OffsetRange } from "../checker/index";
import { LineMap } from "../checker/index";

export class PositionIndex {
  private readonly lines: LineMap;

  constructor(readonly text: string) {
    this.lines = new LineMap(text);
  }

  get lineCount(): number {
    return this.lines.lineCount;
  }

  /** The offset of a protocol position, clamped to its line (a character past the end is the end). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lines.lineCount) return this.text.length;
    const start = this.lines.lineStart(position.line);
    return Math.min(start + Math.max(0, position.character), this.lines.lineEnd(position.line));
  }

  /** The protocol position of an offset (clamped to the text; never inside a CRLF pair). */
  positionAt(offset: number): Position {
    let at = Math.max(0, Math.min(Number.isFinite(offset) ? offset : this.text.length, this.text.length));
    if (at > 0 && this.text.charCodeAt(at) === 10 && this.text.charCodeAt(at - 1) === 13) at--;
    const line = this.lines.lineIndexOf(at);
    return { line, character: at - this.lines.lineStart(line) };
  }

  range(range: OffsetRange): Range {
    return { start: this.positionAt(range.start), end: this.positionAt(Math.max(range.start, range.end)) };
  }

  /** A 1-based line and code-point column (the checker's public form) as a protocol position. */
  fromPublic(line: number, column: number): Position {
    const index = Math.max(0, Math.min(line - 1, this.lines.lineCount - 1));
    const start = this.lines.lineStart(index);
    const end = this.lines.lineEnd(index);
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
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
