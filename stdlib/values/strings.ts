// Code-point helpers: Python strings are sequences of code points, JS strings of UTF-16 units.
// Lone surrogates count as one code point each (as Python's '\ud800').

const SURROGATE = /[\uD800-\uDFFF]/;
const NON_ASCII = /[^\p{ASCII}]/u;

/** True when the string has no surrogate, so code-unit and code-point indices agree. */
export function isBmpOnly(s: string): boolean {
  return !SURROGATE.test(s);
}

export function isAscii(s: string): boolean {
  return !NON_ASCII.test(s);
}

export function toCodePoints(s: string): string[] {
  return Array.from(s);
}

export function cpLength(s: string): number {
  if (isBmpOnly(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The code point at code-point index `i` (≥ 0), or undefined when out of range. */
export function cpAt(s: string, i: number): string | undefined {
  if (isBmpOnly(s)) return i < s.length ? s.charAt(i) : undefined;
  let n = 0;
  for (const ch of s) {
    if (n === i) return ch;
    n++;
  }
  return undefined;
}

/** Code points [start, end) with 0 ≤ start, end clamped to the length (no negative indices). */
export function cpSlice(s: string, start: number, end: number): string {
  if (isBmpOnly(s)) return s.slice(start, end);
  if (end <= start) return "";
  return toCodePoints(s).slice(start, end).join("");
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Compares two strings by code point (Python order): negative, zero or positive. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  // The first difference may be the low half of a pair: compare whole code points from its start.
  if (i > 0 && isHigh(a.charCodeAt(i - 1))) {
    const ca = a.codePointAt(i - 1) ?? 0;
    const cb = b.codePointAt(i - 1) ?? 0;
    if (ca !== cb) return ca - cb;
    // A lone high surrogate in both: the difference is in the code points at i.
  }
  return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
}

/**
 * Substring search by code points: the index (in UTF-16 units) of the first occurrence of
 * `needle` in `hay` at or after unit `from` that does not split a surrogate pair, or -1.
 */
export function cpIndexOf(hay: string, needle: string, from = 0): number {
  let i = hay.indexOf(needle, from);
  if (isBmpOnly(needle) && isBmpOnly(hay)) return i;
  while (i !== -1) {
    const before = i > 0 ? hay.charCodeAt(i - 1) : 0;
    const splitsStart = isHigh(before) && isLowAt(hay, i);
    const end = i + needle.length;
    const splitsEnd = end > 0 && end < hay.length && isHigh(hay.charCodeAt(end - 1)) && isLowAt(hay, end);
    if (!splitsStart && !splitsEnd) return i;
    i = hay.indexOf(needle, i + 1);
  }
  return -1;
}

function isLowAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
}
