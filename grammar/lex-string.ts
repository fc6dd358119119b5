// String literals (docs/reference/language.md §10.2): prefixes, escapes, and the rejected forms (f-strings, bytes,
// triple quotes), decoded into the literal's value.
import type { LexError } from "./lex-payload";

export interface StringPayload {
  readonly value: string;
  readonly error: LexError | null;
}

export interface ScannedString {
  readonly end: number;
  readonly payload: StringPayload;
}

interface Prefix {
  readonly length: number;
  readonly raw: boolean;
  readonly rejected: string | null;
}

const QUOTE_SINGLE = 39;
const QUOTE_DOUBLE = 34;
const BACKSLASH = 92;

function isQuote(c: number): boolean {
  return c === QUOTE_SINGLE || c === QUOTE_DOUBLE;
}

/** r, u, f, b in either case. */
function isPrefixLetter(c: number): boolean {
  const lower = c | 32;
  return lower === 114 || lower === 117 || lower === 102 || lower === 98;
}

const VALID_PREFIXES = new Set(["r", "u", "f", "b", "rb", "br", "rf", "fr"]);

/** The string prefix at `start` (possibly empty), or null when no string literal starts there. */
function readPrefix(text: string, start: number): Prefix | null {
  let n = 0;
  while (n < 2 && isPrefixLetter(text.charCodeAt(start + n))) n++;
  if (!isQuote(text.charCodeAt(start + n))) return null;
  const prefix = text.slice(start, start + n).toLowerCase();
  if (n > 0 && !VALID_PREFIXES.has(prefix)) return null;
  let rejected: string | null = null;
  if (prefix.includes("f")) rejected = "f-strings are not supported";
  else if (prefix.includes("b")) rejected = "bytes literals are not supported";
  return { length: n, raw: prefix.includes("r"), rejected };
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

const HEX_ESCAPE_WIDTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

interface Escape {
  readonly value: string;
  readonly end: number;
  readonly error: LexError | null;
}

/** Decodes the escape whose backslash is at `i` (a non-raw string; text[i + 1] exists). */
function decodeEscape(text: string, i: number): Escape {
  const c = text.charAt(i + 1);
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return { value: simple, end: i + 2, error: null };
  if (c === "\n") return { value: "", end: i + 2, error: null };
  if (c === "\r") return { value: "", end: text.charAt(i + 2) === "\n" ? i + 3 : i + 2, error: null };
  if (c >= "0" && c <= "7") {
    let j = i + 1;
    while (j < i + 4 && /[0-7]/.test(text.charAt(j))) j++;
    return { value: String.fromCodePoint(Number.parseInt(text.slice(i + 1, j), 8)), end: j, error: null };
  }
  const width = HEX_ESCAPE_WIDTH[c];
  if (width === undefined) return { value: "\\", end: i + 1, error: null };
  let j = i + 2;
  while (j < i + 2 + width && /[0-9A-Fa-f]/.test(text.charAt(j))) j++;
  const code = Number.parseInt(text.slice(i + 2, j), 16);
  if (j < i + 2 + width || code > 0x10ffff) {
    const error = { detail: `invalid escape sequence '${text.slice(i, j)}'`, start: i, end: j };
    return { value: "", end: j, error };
  }
  return { value: String.fromCodePoint(code), end: j, error: null };
}

/** Scans to the end of a triple-quoted literal (or the end of the text). */
function tripleQuotedEnd(text: string, bodyStart: number, quote: string): number {
  const closing = quote.repeat(3);
  let i = bodyStart;
  while (i < text.length) {
    if (text.charCodeAt(i) === BACKSLASH) i += 2;
    else if (text.startsWith(closing, i)) return i + 3;
    else i++;
  }
  return text.length;
}

/** Scans a string literal (with optional prefix) at `start`; null when there is none. */
export function scanString(text: string, start: number): ScannedString | null {
  const prefix = readPrefix(text, start);
  if (prefix === null) return null;
  const quoteAt = start + prefix.length;
  const quoteCode = text.charCodeAt(quoteAt);
  const quote = text.charAt(quoteAt);
  if (text.charCodeAt(quoteAt + 1) === quoteCode && text.charCodeAt(quoteAt + 2) === quoteCode) {
    const end = tripleQuotedEnd(text, quoteAt + 3, quote);
    const detail = prefix.rejected ?? "triple-quoted strings are not supported";
    return { end, payload: { value: "", error: { detail, start, end } } };
  }
  let value = "";
  let error: LexError | null = null;
  let chunk = quoteAt + 1;
  let i = chunk;
  for (;;) {
    if (i >= text.length) break;
    const c = text.charCodeAt(i);
    if (c === quoteCode) {
      value += text.slice(chunk, i);
      const end = i + 1;
      if (prefix.rejected !== null) error = { detail: prefix.rejected, start, end };
      return { end, payload: { value, error } };
    }
    if (c === 10 || c === 13) break;
    if (c !== BACKSLASH) {
      i++;
      continue;
    }
    if (i + 1 >= text.length) break;
    if (prefix.raw) {
      i += text.charCodeAt(i + 1) === 13 && text.charCodeAt(i + 2) === 10 ? 3 : 2;
      continue;
    }
    value += text.slice(chunk, i);
    const esc = decodeEscape(text, i);
    value += esc.value;
    if (error === null) error = esc.error;
    i = esc.end;
    chunk = i;
  }
  value += text.slice(chunk, i);
  // Unterminated: the token runs to the end of the line.
  return { end: i, payload: { value, error: { detail: "unterminated string literal", start, end: i } } };
}
