// round() with CPython's exact semantics (docs/reference/language.md §10.9): halves go to even, and a float is
// rounded on its exact binary value (round(2.675, 2) == 2.67 because 2.675 is stored as
// 2.67499999…). Done with exact bigint arithmetic on the double's mantissa and exponent.
import { PyError } from "../values/errors";
import { normInt, type PyInt } from "../values/value";

/** CPython's float_round bounds: beyond them the result is x itself, or a signed zero. */
const NDIGITS_MAX = 323;
const NDIGITS_MIN = -308;

/** |x| = mantissa * 2^exponent exactly (x finite). */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  if (biased === 0) return { mantissa: fraction, exponent: -1074 };
  return { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** num / den rounded to the nearest integer, ties to even (num ≥ 0, den > 0). */
function divRoundHalfEven(num: bigint, den: bigint): bigint {
  const q = num / den;
  const twiceRest = (num % den) * 2n;
  if (twiceRest > den || (twiceRest === den && q % 2n === 1n)) return q + 1n;
  return q;
}

/** round(x, ndigits) for a float x: a float. */
export function roundFloatDigits(x: number, ndigits: PyInt): number {
  if (!Number.isFinite(x)) return x;
  if (ndigits > NDIGITS_MAX) return x;
  if (ndigits < NDIGITS_MIN) return 0 * x;
  const n = Number(ndigits);
  const { mantissa, exponent } = decompose(x);
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (n >= 0) num *= 10n ** BigInt(n);
  else den *= 10n ** BigInt(-n);
  const q = divRoundHalfEven(num, den);
  // Decimal text to double is correctly rounded in ECMAScript, as strtod is in CPython.
  const magnitude = Number(`${q}e${-n}`);
  if (!Number.isFinite(magnitude)) throw new PyError("OverflowError", "rounded value too large to represent");
  return x < 0 || Object.is(x, -0) ? -magnitude : magnitude;
}

/** round(x) for a float x: an int (errors as int()). */
export function roundFloatToInt(x: number): PyInt {
  if (Number.isNaN(x)) throw new PyError("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw new PyError("OverflowError", "cannot convert float infinity to integer");
  const floor = Math.floor(x);
  const diff = x - floor; // exact for doubles
  let rounded = floor;
  if (diff > 0.5 || (diff === 0.5 && floor % 2 !== 0)) rounded = floor + 1;
  return normInt(BigInt(rounded));
}

/** round(x, ndigits) for an int x: an int, rounded to a multiple of 10^-ndigits. */
export function roundIntDigits(x: PyInt, ndigits: PyInt): PyInt {
  if (ndigits >= 0) return x;
  const value = BigInt(x);
  const magnitude = value < 0n ? -value : value;
  // 10^k with k beyond the digit count (plus one) exceeds 2·|x|: the result is 0.
  if (-BigInt(ndigits) > BigInt(magnitude.toString().length + 1)) return 0;
  const power = 10n ** -BigInt(ndigits);
  const q = divRoundHalfEven(magnitude, power) * power;
  return normInt(value < 0n ? -q : q);
}
