// `multipleOf` as Python's jsonschema computes it: an integer divisor divides with `%` (exact for
// ints, float remainder for floats); a float divisor checks that `instance / divisor` is integral,
// and when that quotient overflows, decides exactly (jsonschema falls back to `Fraction`).
import { floatMod } from "../../../stdlib/values/float-ops";
import { PyFloat, type PyInt } from "../../../stdlib/values/value";

/** Whether `instance` fails `multipleOf: divisor` (divisor > 0 in a checked spec; 0 never fails). */
export function failsMultipleOf(instance: PyInt | PyFloat, divisor: number): boolean {
  if (divisor === 0 || !Number.isFinite(divisor)) return false;
  if (Number.isInteger(divisor)) {
    if (instance instanceof PyFloat) return floatMod(instance.v, divisor) !== 0; // NaN counts as failed
    return BigInt(instance) % BigInt(divisor) !== 0n;
  }
  const x = instance instanceof PyFloat ? instance.v : Number(instance); // a huge int: Infinity
  const quotient = x / divisor;
  if (Number.isNaN(quotient)) return true;
  if (Number.isFinite(quotient)) return !Number.isInteger(quotient);
  if (instance instanceof PyFloat && !Number.isFinite(instance.v)) return true;
  return !exactlyDivisible(instance instanceof PyFloat ? instance.v : instance, divisor);
}

/** Binary scale that makes every finite double an integer (2^-1074 is the smallest subnormal). */
const SCALE = 1074n;

/** A finite double or an int, times 2^1074, as an exact bigint. */
function scaled(x: number | bigint): bigint {
  if (typeof x === "bigint") return x << SCALE;
  if (Number.isInteger(x)) return BigInt(x) << SCALE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n === 1n ? -1n : 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  // value = mantissa × 2^(exponent − 1075) for normal numbers, fraction × 2^−1074 for subnormals
  const mantissa = exponent === 0 ? fraction : fraction | 0x10000000000000n;
  const shift = BigInt((exponent === 0 ? 1 : exponent) - 1075) + SCALE;
  return sign * (mantissa << shift);
}

function exactlyDivisible(x: number | bigint, divisor: number): boolean {
  return scaled(x) % scaled(divisor) === 0n;
}
