// Exact integer arithmetic over number|bigint and exact int/float comparison (docs/reference/language.md §10.8.5).
import { PyError } from "./errors";
import { MAX_SAFE, normInt, PyFloat, type PyInt, type PyValue } from "./value";

export type PyNumber = boolean | PyInt | PyFloat;

export function isNumber(v: PyValue): v is PyNumber {
  return typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof PyFloat;
}

/** A number with booleans turned into the ints 0 and 1. */
export function toNumberValue(v: PyNumber): PyInt | PyFloat {
  return typeof v === "boolean" ? (v ? 1 : 0) : v;
}

export function floatValue(x: number): PyFloat {
  return new PyFloat(x);
}

function big(a: PyInt): bigint {
  return typeof a === "bigint" ? a : BigInt(a);
}

export function intAdd(a: PyInt, b: PyInt): PyInt {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (Math.abs(r) <= MAX_SAFE) return r + 0;
  }
  return normInt(big(a) + big(b));
}

export function intSub(a: PyInt, b: PyInt): PyInt {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (Math.abs(r) <= MAX_SAFE) return r + 0;
  }
  return normInt(big(a) - big(b));
}

export function intMul(a: PyInt, b: PyInt): PyInt {
  if (typeof a === "number" && typeof b === "number") {
    // A rounded product ≤ MAX_SAFE means the exact product is ≤ MAX_SAFE too.
    const r = a * b;
    if (Math.abs(r) <= MAX_SAFE) return r + 0;
  }
  return normInt(big(a) * big(b));
}

export function intNeg(a: PyInt): PyInt {
  return typeof a === "number" ? 0 - a : normInt(-a);
}

/** Floor division and modulo with Python signs (remainder has the sign of the divisor); b ≠ 0. */
export function intDivMod(a: PyInt, b: PyInt): [PyInt, PyInt] {
  if (typeof a === "number" && typeof b === "number") {
    let r = a % b; // exact (fmod)
    let q = (a - r) / b; // exact: a − r is a multiple of b
    if (r !== 0 && r < 0 !== b < 0) {
      r += b;
      q -= 1;
    }
    return [q + 0, r + 0];
  }
  const x = big(a);
  const y = big(b);
  let q = x / y;
  let r = x % y;
  if (r !== 0n && r < 0n !== y < 0n) {
    r += y;
    q -= 1n;
  }
  return [normInt(q), normInt(r)];
}

/** int → float, correctly rounded; OverflowError when the int is too large. */
export function intToFloat(a: PyInt): number {
  if (typeof a === "number") return a;
  const f = Number(a); // ECMAScript rounds to nearest, ties to even
  if (!Number.isFinite(f)) throw new PyError("OverflowError", "int too large to convert to float");
  return f;
}

/** Number of bits of |a| (0 for 0). */
export function bitLength(a: PyInt): number {
  const n = typeof a === "bigint" ? (a < 0n ? -a : a) : BigInt(Math.abs(a));
  if (n === 0n) return 0;
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(Number.parseInt(hex[0] ?? "0", 16)));
}

/** Exact comparison of a finite-or-not float with an int: sign of (f − a), NaN when f is NaN. */
function compareFloatInt(f: number, a: PyInt): number {
  if (Number.isNaN(f)) return Number.NaN;
  if (typeof a === "number") return f < a ? -1 : f > a ? 1 : 0;
  if (f === Number.POSITIVE_INFINITY) return 1;
  if (f === Number.NEGATIVE_INFINITY) return -1;
  const fl = Math.floor(f);
  const bf = BigInt(fl);
  if (bf < a) return -1;
  if (bf > a) return 1;
  return fl === f ? 0 : 1;
}

/** Exact mathematical comparison of two numbers: -1, 0, 1, or NaN when a NaN is involved. */
export function compareNumbers(a: PyNumber, b: PyNumber): number {
  const x = toNumberValue(a);
  const y = toNumberValue(b);
  if (x instanceof PyFloat) {
    if (y instanceof PyFloat) return x.v < y.v ? -1 : x.v > y.v ? 1 : x.v === y.v ? 0 : Number.NaN;
    return sign(compareFloatInt(x.v, y));
  }
  if (y instanceof PyFloat) return sign(-compareFloatInt(y.v, x));
  return x < y ? -1 : x > y ? 1 : 0;
}

function sign(n: number): number {
  if (Number.isNaN(n)) return Number.NaN;
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/** Whether an int fits a Py_ssize_t (−2^63 … 2^63 − 1), as Python requires for indices. */
export function fitsIndex(a: PyInt): boolean {
  return typeof a === "number" || (a <= 9223372036854775807n && a >= -9223372036854775808n);
}
