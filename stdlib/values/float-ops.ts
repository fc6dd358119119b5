// Float and true-division arithmetic with CPython's exact rules (docs/reference/language.md §10.8.5).
import { PyError } from "./errors";
import { bitLength } from "./numbers";
import { MAX_SAFE, type PyInt } from "./value";

function zeroDivision(message: string): PyError {
  return new PyError("ZeroDivisionError", message);
}

/** CPython float_rem. */
export function floatMod(a: number, b: number): number {
  if (b === 0) throw zeroDivision("float modulo");
  let mod = a % b;
  // C truthiness: NaN is non-zero.
  if (mod !== 0) {
    if (b < 0 !== mod < 0) mod += b;
  } else {
    mod = b < 0 ? -0 : 0;
  }
  return mod;
}

/** CPython float_floor_div (via float_divmod). */
export function floatFloorDiv(a: number, b: number): number {
  if (b === 0) throw zeroDivision("float floor division by zero");
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
  if (div !== 0) {
    let floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
    return floordiv;
  }
  const q = a / b;
  return q < 0 || Object.is(q, -0) ? -0 : 0;
}

export function floatTrueDiv(a: number, b: number): number {
  if (b === 0) throw zeroDivision("float division by zero");
  return a / b;
}

/** x · 2^e, exact whenever the result is representable (steps keep intermediates normal). */
function ldexp(x: number, e: number): number {
  while (e > 1023) {
    x *= 2 ** 1023;
    e -= 1023;
  }
  while (e < -1022) {
    x *= 2 ** -1022;
    e += 1022;
  }
  return x * 2 ** e;
}

const DBL_MANT_DIG = 53;
const DBL_MAX_EXP = 1024;
const DBL_MIN_EXP = -1021;

/** int / int, correctly rounded (CPython long_true_divide). */
export function intTrueDiv(a: PyInt, b: PyInt): number {
  if (b === 0) throw zeroDivision("division by zero");
  if (typeof a === "number" && typeof b === "number") return a / b; // both exact doubles
  const negate = a < 0 !== b < 0;
  let x = typeof a === "bigint" ? a : BigInt(a);
  let y = typeof b === "bigint" ? b : BigInt(b);
  if (x < 0n) x = -x;
  if (y < 0n) y = -y;
  if (x === 0n) return negate ? -0 : 0;
  if (x <= BigInt(MAX_SAFE) + 1n && y <= BigInt(MAX_SAFE) + 1n) {
    const r = Number(x) / Number(y);
    return negate ? -r : r;
  }
  const diff = bitLength(x) - bitLength(y);
  if (diff > DBL_MAX_EXP) throw tooLarge();
  if (diff < DBL_MIN_EXP - DBL_MANT_DIG - 1) return negate ? -0 : 0;
  const shift = Math.max(diff, DBL_MIN_EXP) - DBL_MANT_DIG - 2;
  let inexact = false;
  if (shift <= 0) x <<= BigInt(-shift);
  else {
    const mask = (1n << BigInt(shift)) - 1n;
    if ((x & mask) !== 0n) inexact = true;
    x >>= BigInt(shift);
  }
  let q = x / y;
  if (q * y !== x) inexact = true;
  const qBits = bitLength(q);
  const extraBits = Math.max(qBits, DBL_MIN_EXP - shift) - DBL_MANT_DIG;
  const mask = 1n << BigInt(extraBits - 1);
  let low = q & ((1n << BigInt(extraBits + 1)) - 1n);
  if (inexact) low |= 1n;
  // Round half to even on the extra bits.
  if ((low & mask) !== 0n && (low & (3n * mask - 1n)) !== 0n) q += mask;
  q &= ~(2n * mask - 1n);
  const dx = Number(q); // exact: at most 53 significant bits
  if (shift + qBits >= DBL_MAX_EXP && (shift + qBits > DBL_MAX_EXP || dx === 2 ** qBits)) throw tooLarge();
  const r = ldexp(dx, shift);
  return negate ? -r : r;
}

function tooLarge(): PyError {
  return new PyError("OverflowError", "integer division result too large for a float");
}
