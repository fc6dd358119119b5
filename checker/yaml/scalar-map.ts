// Positions inside a scalar (docs/reference/language.md §9.2): which source character produced each character
// of the loaded string. Built lazily (only when a rule asks for a position inside a scalar) by
// re-running the yaml package's own unfolding algorithms while recording source offsets.
//
// Conventions:
// - a character copied from the source maps to that character; the range of the last character
//   ends just after it; both halves of a surrogate pair map to the pair (start and end);
// - a character produced by an escape (`\n`, `\x41`, `\u00e9`, `\U0001F600`, and `''` in a
//   single-quoted scalar) maps to the backslash (the first quote), and its range ends at the end
//   of the whole escape sequence;
// - a line break folded into a space, or a kept line break, maps to the end of the source line
//   it came from (the offset of its `\n`, or of the `\r` of `\r\n`); the line breaks produced by
//   empty lines map to the end of those empty lines;
// - index `length` (an empty range just after the content) maps to just after the last content
//   character (before a closing quote; after the last non-empty line of a block scalar).
// Safety net: the string rebuilt while mapping must equal the loaded string; otherwise (a case the
// mapper does not know) every index maps to the scalar's start. Never throws.
import type { CST } from "yaml";
import type { SourceRange } from "../base/source-range";

export interface ScalarSource {
  /** The whole file text. */
  readonly text: string;
  readonly style: "plain" | "single" | "double" | "literal" | "folded";
  /** Offsets of the scalar as written (quotes included; for a block scalar, from its header). */
  readonly start: number;
  readonly end: number;
  /** The string the yaml package loaded (the text before YAML 1.1 typing). */
  readonly loaded: string;
  /** The CST token of a block scalar (its indentation and header are needed). */
  readonly block?: CST.BlockScalar;
}

export class ScalarMap {
  constructor(
    private readonly from: Int32Array,
    private readonly to: Int32Array,
    private readonly contentEnd: number,
    /** False when the safety net replaced the map (every index at the scalar's start). */
    readonly exact: boolean,
  ) {}

  range(start: number, end: number): SourceRange {
    const n = this.from.length;
    const s = clamp(Math.trunc(start), 0, n);
    const e = clamp(Math.trunc(end), s, n);
    if (s === e) {
      const at = s < n ? (this.from[s] ?? this.contentEnd) : this.contentEnd;
      return { start: at, end: at };
    }
    const a = this.from[s] ?? this.contentEnd;
    const b = this.to[e - 1] ?? this.contentEnd;
    return { start: a, end: Math.max(a, b) };
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Number.isNaN(x) ? lo : Math.max(lo, Math.min(hi, x));
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Records produced characters with their source positions. */
class Recorder {
  out = "";
  readonly from: number[] = [];
  readonly to: number[] = [];

  /** One source UTF-16 unit copied as is; both halves of a surrogate pair map to the whole pair. */
  copy(text: string, at: number): void {
    const c = text.charCodeAt(at);
    this.out += text.charAt(at);
    if (isHigh(c) && isLow(text.charCodeAt(at + 1))) {
      this.from.push(at);
      this.to.push(at + 2);
    } else if (isLow(c) && at > 0 && isHigh(text.charCodeAt(at - 1))) {
      this.from.push(at - 1);
      this.to.push(at + 1);
    } else {
      this.from.push(at);
      this.to.push(at + 1);
    }
  }

  copyRange(text: string, from: number, to: number): void {
    for (let i = from; i < to; i++) this.copy(text, i);
  }

  /** Produced characters (an escape, a folded break) attributed to [from, to). */
  produce(chars: string, from: number, to: number): void {
    for (let i = 0; i < chars.length; i++) {
      this.out += chars.charAt(i);
      this.from.push(from);
      this.to.push(to);
    }
  }
}

export function buildScalarMap(src: ScalarSource): ScalarMap {
  let rec: Recorder | null = null;
  let contentEnd = src.end;
  try {
    switch (src.style) {
      case "plain":
        rec = new Recorder();
        unfold(src.text, src.start, src.end, rec, false);
        break;
      case "single": {
        const closed = src.end - src.start >= 2 && src.text.charAt(src.end - 1) === "'";
        contentEnd = closed ? src.end - 1 : src.end;
        rec = new Recorder();
        unfold(src.text, src.start + 1, contentEnd, rec, true);
        break;
      }
      case "double": {
        const closed = src.end - src.start >= 2 && src.text.charAt(src.end - 1) === '"';
        contentEnd = closed ? src.end - 1 : src.end;
        rec = doubleQuoted(src.text, src.start + 1, contentEnd);
        break;
      }
      default: {
        const block = src.block === undefined ? null : blockScalar(src.text, src.block, src.style);
        if (block !== null) {
          rec = block.rec;
          contentEnd = block.contentEnd;
        }
      }
    }
  } catch {
    rec = null;
  }
  if (rec === null || rec.out !== src.loaded) return fallback(src);
  // A line break kept at the very end of a text without a final newline maps to the end of the
  // text: clamp so that every range stays inside the text.
  const limit = src.text.length;
  const clampTo = (x: number): number => Math.min(x, limit);
  return new ScalarMap(
    Int32Array.from(rec.from, clampTo),
    Int32Array.from(rec.to, clampTo),
    clampTo(contentEnd),
    true,
  );
}

function fallback(src: ScalarSource): ScalarMap {
  const n = src.loaded.length;
  const end = Math.min(src.start + 1, src.end);
  return new ScalarMap(new Int32Array(n).fill(src.start), new Int32Array(n).fill(end), src.start, false);
}

const isBlank = (c: string): boolean => c === " " || c === "\t";

/**
 * The yaml package's line unfolding of plain and single-quoted scalars over text[start, end):
 * the first line keeps its leading blanks, other lines are trimmed, a single line break becomes a
 * space and N breaks become N-1 newlines. For single-quoted scalars `''` becomes `'`.
 */
function unfold(text: string, start: number, end: number, rec: Recorder, quoted: boolean): void {
  // Line by line; `sep` is the pending separator (a space, or a newline after an empty line) and
  // `sepAt` the source offset it maps to (the end of the line that produced it).
  let lineStart = start;
  let first = true;
  let sep = "";
  let sepAt = -1;
  const emit = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      if (quoted && text.charAt(i) === "'" && text.charAt(i + 1) === "'" && i + 1 < to) {
        rec.produce("'", i, i + 2);
        i++;
      } else rec.copy(text, i);
    }
  };
  while (true) {
    const nl = text.indexOf("\n", lineStart);
    const last = nl < 0 || nl >= end;
    const lineEnd = last ? end : text.charAt(nl - 1) === "\r" && nl - 1 >= lineStart ? nl - 1 : nl;
    let a = lineStart;
    let b = lineEnd;
    if (!first) while (a < b && isBlank(text.charAt(a))) a++;
    if (!last) while (b > a && isBlank(text.charAt(b - 1))) b--;
    if (first) {
      emit(a, b);
      first = false;
      if (last) return;
      sep = " ";
      sepAt = lineEnd;
    } else if (last) {
      rec.produce(sep, sepAt, sepAt + 1);
      emit(a, b);
      return;
    } else if (a === b) {
      // An empty line: the first one turns the pending space into a newline, the next ones
      // each add a newline (attributed to the line that produced it).
      if (sep === "\n") rec.produce("\n", sepAt, sepAt + 1);
      sep = "\n";
      sepAt = lineEnd;
    } else {
      rec.produce(sep, sepAt, sepAt + 1);
      emit(a, b);
      sep = " ";
      sepAt = lineEnd;
    }
    lineStart = nl + 1;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  "\t": "\t",
};

/** The yaml package's double-quoted scalar algorithm over the content text[start, end). */
function doubleQuoted(text: string, start: number, end: number): Recorder {
  const rec = new Recorder();
  for (let i = start; i < end; i++) {
    const ch = text.charAt(i);
    if (ch === "\r" && text.charAt(i + 1) === "\n") continue;
    if (ch === "\n") {
      // Fold: one break → a space (at the end of this line), more → one newline per extra break.
      const lineEnd = text.charAt(i - 1) === "\r" && i - 1 >= start ? i - 1 : i;
      let j = i;
      let fold = "";
      const at: number[] = [];
      for (;;) {
        const c = text.charAt(j + 1);
        if (c === "\r" && text.charAt(j + 2) !== "\n") break;
        if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") break;
        if (c === "\n") {
          fold += "\n";
          at.push(text.charAt(j) === "\r" ? j : j + 1);
        }
        j++;
      }
      if (fold === "") rec.produce(" ", lineEnd, lineEnd + 1);
      else for (const p of at) rec.produce("\n", p, p + 1);
      i = j;
    } else if (ch === "\\") {
      const next = text.charAt(i + 1);
      const code = ESCAPES[next];
      if (code !== undefined) {
        rec.produce(code, i, i + 2);
        i++;
      } else if (next === "\n" || (next === "\r" && text.charAt(i + 2) === "\n")) {
        // An escaped line break: nothing is produced; the next line's leading blanks are skipped.
        i += next === "\n" ? 1 : 2;
        while (isBlank(text.charAt(i + 1))) i++;
      } else if (next === "x" || next === "u" || next === "U") {
        const length = next === "x" ? 2 : next === "u" ? 4 : 8;
        const digits = text.substr(i + 2, length);
        const cp = /^[0-9a-fA-F]+$/.test(digits) && digits.length === length ? parseInt(digits, 16) : NaN;
        if (cp <= 0x10ffff) rec.produce(String.fromCodePoint(cp), i, i + 2 + length);
        else rec.copyRange(text, i, i + 2 + length);
        i += 1 + length;
      } else {
        // An invalid escape (a YAML-SYNTAX error): the yaml package keeps both characters.
        rec.copyRange(text, i, i + 2);
        i++;
      }
    } else if (isBlank(ch)) {
      // Blanks before a line break are dropped.
      let j = i;
      while (isBlank(text.charAt(j + 1))) j++;
      const after = text.charAt(j + 1);
      const breakFollows = after === "\n" || (after === "\r" && text.charAt(j + 2) === "\n");
      if (!breakFollows || j + 1 >= end) rec.copyRange(text, i, j + 1);
      i = j;
    } else rec.copy(text, i);
  }
  return rec;
}

/**
 * The yaml package's block scalar algorithm (resolve-block-scalar) with positions: indentation is
 * skipped, each kept line break maps to the end of its line, folded breaks likewise.
 */
function blockScalar(
  text: string,
  token: CST.BlockScalar,
  style: "literal" | "folded",
): { rec: Recorder; contentEnd: number } | null {
  const header = token.props[0];
  if (header === undefined || header.type !== "block-scalar-header") return null;
  let chomp = "";
  let explicit = 0;
  for (const ch of header.source.slice(1)) {
    if (!chomp && (ch === "-" || ch === "+")) chomp = ch;
    else if (!explicit && Number(ch)) explicit = Number(ch);
  }
  let headerLength = 0;
  for (const p of token.props)
    headerLength += "source" in p && typeof p.source === "string" ? p.source.length : 0;
  const base = token.offset + headerLength;
  // Lines of the body: [indent, contentStart, contentEnd (without \r), breakOffset or -1].
  const lines: { indent: number; start: number; end: number; brk: number }[] = [];
  if (token.source !== "") {
    let at = base;
    const stop = base + token.source.length;
    while (true) {
      const nl = text.indexOf("\n", at);
      const last = nl < 0 || nl >= stop;
      const lineEnd = last ? stop : nl;
      let s = at;
      while (s < lineEnd && text.charAt(s) === " ") s++;
      const crlf = !last && text.charAt(lineEnd - 1) === "\r" && lineEnd - 1 >= s;
      lines.push({
        indent: s - at,
        start: s,
        end: crlf ? lineEnd - 1 : lineEnd,
        brk: last ? -1 : crlf ? lineEnd - 1 : lineEnd,
      });
      if (last) break;
      at = nl + 1;
    }
  }
  const rec = new Recorder();
  const isEmpty = (i: number): boolean => {
    const l = lines[i];
    return l === undefined || l.start === l.end;
  };
  const lineEndOf = (i: number): number => {
    const l = lines[i];
    if (l === undefined) return token.offset + header.source.length;
    return l.brk >= 0 ? l.brk : l.end;
  };
  let chompStart = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (isEmpty(i)) chompStart = i;
    else break;
  }
  if (chompStart === 0) {
    if (chomp === "+" && lines.length > 0) {
      const count = Math.max(1, lines.length - 1);
      for (let i = 0; i < count; i++) rec.produce("\n", lineEndOf(i), lineEndOf(i) + 1);
    }
    return { rec, contentEnd: token.offset + header.source.length };
  }
  let trimIndent = token.indent + explicit;
  let contentStart = 0;
  for (let i = 0; i < chompStart; i++) {
    const l = lines[i];
    if (l === undefined) break;
    if (l.start === l.end) {
      if (explicit === 0 && l.indent > trimIndent) trimIndent = l.indent;
    } else {
      if (explicit === 0) trimIndent = l.indent;
      contentStart = i;
      break;
    }
  }
  for (let i = lines.length - 1; i >= chompStart; i--) {
    if ((lines[i]?.indent ?? 0) > trimIndent) chompStart = i + 1;
  }
  /** Copies a line's indentation beyond trimIndent, then its content. */
  const copyLine = (i: number): void => {
    const l = lines[i];
    if (l === undefined) return;
    rec.copyRange(text, l.start - l.indent + Math.min(trimIndent, l.indent), l.end);
  };
  for (let i = 0; i < contentStart; i++) {
    copyLine(i);
    rec.produce("\n", lineEndOf(i), lineEndOf(i) + 1);
  }
  let sep = "";
  let sepAt = -1;
  let prevMoreIndented = false;
  for (let i = contentStart; i < chompStart; i++) {
    const l = lines[i];
    if (l === undefined) break;
    if (l.start !== l.end && l.indent < trimIndent) return null; // a BAD_INDENT error
    if (style === "literal") {
      rec.produce(sep, sepAt, sepAt + 1);
      copyLine(i);
      sep = "\n";
    } else if (l.indent > trimIndent || text.charAt(l.start) === "\t") {
      if (sep === " ") sep = "\n";
      else if (!prevMoreIndented && sep === "\n") sep = "\n\n";
      rec.produce(sep, sepAt, sepAt + 1);
      copyLine(i);
      sep = "\n";
      prevMoreIndented = true;
    } else if (l.start === l.end) {
      if (sep === "\n") rec.produce("\n", sepAt, sepAt + 1);
      else sep = "\n";
    } else {
      rec.produce(sep, sepAt, sepAt + 1);
      copyLine(i);
      sep = " ";
      prevMoreIndented = false;
    }
    sepAt = lineEndOf(i);
  }
  const last = lines[chompStart - 1];
  const contentEnd = last === undefined ? token.offset : last.end;
  if (chomp === "+") {
    for (let i = chompStart; i < lines.length; i++) {
      rec.produce("\n", lineEndOf(i - 1), lineEndOf(i - 1) + 1);
      copyLine(i);
    }
    if (!rec.out.endsWith("\n"))
      rec.produce("\n", lineEndOf(lines.length - 1), lineEndOf(lines.length - 1) + 1);
  } else if (chomp === "") {
    rec.produce("\n", lineEndOf(chompStart - 1), lineEndOf(chompStart - 1) + 1);
  }
  return { rec, contentEnd };
}
