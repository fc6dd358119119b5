// The bits of Python string and `re` behaviour the task compiler relies on (docs/reference/runtime.md §19.2):
// `str.strip`/`lstrip` over Unicode white space (`str.isspace`), `str.splitlines`, and the
// Unicode meaning of `\s`, `\S`, `\b` in patterns (JS's own classes differ: `\s` includes U+FEFF
// and misses U+001C–U+001F and U+0085; `\b` is ASCII-only).
import { PY_SPACE } from "../../checker/yaml/python-space";

/** Python's `\s` (a character class, for building patterns). */
export const S = PY_SPACE;
/** Python's `\S`. */
export const NOT_S = `[^${PY_SPACE.slice(1, -1)}]`;
/** Python's `\w` for str patterns: letters, digits and other numeric characters, `_`. */
const W = "[\\p{L}\\p{N}_]";
/** `\b` before a word character. */
export const WORD_START = `(?<!${W})`;
/** `\b` after a word character. */
export const WORD_END = `(?!${W})`;

const LEADING = new RegExp(`^${S}+`, "u");
const TRAILING = new RegExp(`${S}+$`, "u");

export function pyStrip(s: string): string {
  return s.replace(LEADING, "").replace(TRAILING, "");
}

export function pyLstrip(s: string): string {
  return s.replace(LEADING, "");
}

/** `str.splitlines()`: no empty last line for a final line break; `""` has no lines. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are line breaks
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(LINE_BREAK);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}
