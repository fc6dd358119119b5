// Python's int() and float() of untrusted text, as far as run budgets need them (budget.ts,
// pricing.ts): the reference coerces reported usage with them, so a value counts here exactly
// when it counts there. ASCII digits only (Python also takes other Unicode decimal digits).

const INT_TEXT = /^[+-]?\d+(?:_\d+)*$/;
const DIGITS = String.raw`\d+(?:_\d+)*`;
const FLOAT_TEXT = new RegExp(
  String.raw`^[+-]?(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`,
);
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** int(text): surrounding whitespace allowed, `_` between digits; null where Python raises. */
export function parsePyInt(text: string): number | null {
  const t = text.trim();
  if (!INT_TEXT.test(t)) return null;
  return Number(t.replaceAll("_", ""));
}

/** float(text): decimal and exponent forms, inf/infinity/nan in any case; null where Python raises. */
export function parsePyFloat(text: string): number | null {
  const t = text.trim();
  if (SPECIAL.test(t)) {
    const negative = t.startsWith("-");
    if (/nan$/i.test(t)) return Number.NaN;
    return negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!FLOAT_TEXT.test(t)) return null;
  return Number(t.replaceAll("_", ""));
}
