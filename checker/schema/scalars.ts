// JSON-Schema kinds of loaded YAML scalars (docs/reference/language.md §9.5.2: "Integer" accepts a float with an
// integral value, "number" excludes booleans). Ints are number (safe range) or bigint; floats
// are PyFloat boxes.
import { PyFloat } from "../../stdlib/values/value";
import type { YamlScalar } from "../yaml/nodes";

/** The integer value of an int or of an integral float (bigints beyond 2^53 lose precision). */
export function integralValue(v: YamlScalar | undefined): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof PyFloat && Number.isInteger(v.v)) return v.v;
  return null;
}

/** An int or a float (booleans are not numbers here). */
export function isNumberValue(v: YamlScalar | undefined): boolean {
  return typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat;
}

/** The numeric value of an int or float, or null. */
export function numberValue(v: YamlScalar | undefined): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof PyFloat) return v.v;
  return null;
}

/** True when a number is above `maximum` (NaN is not, as in Python). Exact for bigints. */
export function numberAbove(v: YamlScalar | undefined, maximum: number): boolean {
  if (typeof v === "bigint") return v > BigInt(maximum);
  const n = numberValue(v);
  return n !== null && n > maximum;
}

/** True when a number is below `minimum` (NaN is not, as in Python). Exact for bigints. */
export function numberBelow(v: YamlScalar | undefined, minimum: number): boolean {
  if (typeof v === "bigint") return v < BigInt(minimum);
  const n = numberValue(v);
  return n !== null && n < minimum;
}
