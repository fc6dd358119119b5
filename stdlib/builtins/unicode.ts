// Python's Unicode character predicates (str.isspace, isdigit, isalpha, isalnum, isdecimal) for
// single code points. Verified against CPython 3.11 (Unicode 14.0): isalpha == \p{L},
// isdecimal == \p{Nd}, isnumeric ⊂ \p{L} ∪ \p{N} and \p{N} ⊂ isnumeric, so isalnum == \p{L} ∪ \p{N}.
// Residual difference: Node's regular expressions use a newer Unicode version, so code points
// assigned after Unicode 14 are letters/digits here but not in CPython 3.11.

/** Python's str.isspace set (bidirectional class WS, B or S, or category Zs). */
const SPACE_RANGES: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x1c, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

/** Numeric_Type=Digit code points that are not decimal (superscripts, circled digits, …). */
const DIGIT_NOT_DECIMAL: readonly (readonly [number, number])[] = [
  [0xb2, 0xb3],
  [0xb9, 0xb9],
  [0x1369, 0x1371],
  [0x19da, 0x19da],
  [0x2070, 0x2070],
  [0x2074, 0x2079],
  [0x2080, 0x2089],
  [0x2460, 0x2468],
  [0x2474, 0x247c],
  [0x2488, 0x2490],
  [0x24ea, 0x24ea],
  [0x24f5, 0x24fd],
  [0x24ff, 0x24ff],
  [0x2776, 0x277e],
  [0x2780, 0x2788],
  [0x278a, 0x2792],
  [0x10a40, 0x10a43],
  [0x10e60, 0x10e68],
  [0x11052, 0x1105a],
  [0x1f100, 0x1f10a],
];

function inRanges(cp: number, ranges: readonly (readonly [number, number])[]): boolean {
  for (const [lo, hi] of ranges) {
    if (cp < lo) return false;
    if (cp <= hi) return true;
  }
  return false;
}

const DECIMAL = /^\p{Nd}$/u;
const ALPHA = /^\p{L}$/u;
const ALNUM = /^[\p{L}\p{N}]$/u;

export function isSpaceCp(cp: number): boolean {
  return inRanges(cp, SPACE_RANGES);
}

/** `ch` is one code point. */
export function isDecimalChar(ch: string): boolean {
  return DECIMAL.test(ch);
}

export function isDigitChar(ch: string): boolean {
  return DECIMAL.test(ch) || inRanges(ch.codePointAt(0) ?? 0, DIGIT_NOT_DECIMAL);
}

export function isAlphaChar(ch: string): boolean {
  return ALPHA.test(ch);
}

export function isAlnumChar(ch: string): boolean {
  return ALNUM.test(ch);
}

/**
 * The value 0–9 of a decimal digit code point. Decimal digits come in contiguous runs whose
 * lengths are multiples of ten, each starting at a zero (checked for every run in Unicode 14).
 */
export function decimalValue(cp: number): number {
  let start = cp;
  while (start > 0 && DECIMAL.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}
