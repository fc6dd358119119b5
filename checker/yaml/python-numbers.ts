// Python's int() and float() on text, as PyYAML's constructors call them after removing `_` and
// one sign: surrounding whitespace is allowed, a base prefix matching the base is allowed
// (`int('0x1f', 16)`), ASCII digits only (Python also accepts other Unicode digits; a YAML spec
// has no use for them). Results are exact: bigint for ints, the correctly rounded double for floats.
import { PY_SPACE } from "./python-space";

const STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");

/**
 * `text.strip()`. The regular expression only runs when an end is not printable ASCII (the
 * common number has none to strip, and a cold process then never compiles it).
 */
function strip(text: string): string {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f ? text : text.replace(STRIP, "");
}

const DIGITS: Readonly<Record<number, RegExp>> = {
  2: /^(?:0[bB])?([01]+)$/,
  8: /^(?:0[oO])?([0-7]+)$/,
  10: /^([0-9]+)$/,
  16: /^(?:0[xX])?([0-9a-fA-F]+)$/,
};
const PREFIX: Readonly<Record<number, string>> = { 2: "0b", 8: "0o", 10: "", 16: "0x" };

/** `int(text, base)`, or null where Python raises ValueError. */
export function pyInt(text: string, base: 2 | 8 | 10 | 16): bigint | null {
  let s = strip(text);
  let negative = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    negative = s.startsWith("-");
    s = s.slice(1);
  }
  const m = DIGITS[base]?.exec(s);
  if (!m || m[1] === undefined) return null;
  const n = BigInt(`${PREFIX[base]}${m[1]}`);
  return negative ? -n : n;
}

const FLOAT = /^[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)$/i;

/** `float(text)`, or null where Python raises ValueError. */
export function pyFloat(text: string): number | null {
  const s = strip(text);
  if (!FLOAT.test(s)) return null;
  const lower = s.toLowerCase();
  const body = lower.replace(/^[+-]/, "");
  const sign = lower.startsWith("-") ? -1 : 1;
  if (body === "inf" || body === "infinity") return sign * Number.POSITIVE_INFINITY;
  if (body === "nan") return Number.NaN;
  return Number(s);
}
