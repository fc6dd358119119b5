// len, bool, int, float, str, abs, round (docs/reference/language.md §10.9).
import { PyError, typeError } from "../values/errors";
import { floatValue, intToFloat } from "../values/numbers";
import { str as toStr } from "../values/repr";
import { cpLength } from "../values/strings";
import { truthy } from "../values/truth";
import {
  normInt,
  PyDict,
  PyFloat,
  type PyInt,
  PyNamespace,
  PyTuple,
  type PyValue,
  PyView,
  typeName,
} from "../values/value";
import { asIndex } from "./common";
import type { EvalEnv } from "./env";
import { parseFloatString, parseIntString } from "./parse-number";
import { roundFloatDigits, roundFloatToInt, roundIntDigits } from "./round";

export function pyLen(x: PyValue): PyInt {
  if (typeof x === "string") return cpLength(x);
  if (Array.isArray(x)) return x.length;
  if (x instanceof PyTuple) return x.items.length;
  if (x instanceof PyDict) return x.size;
  if (x instanceof PyNamespace) return x.dict.size;
  if (x instanceof PyView) return x.dict.size;
  throw typeError(`object of type '${typeName(x)}' has no len()`);
}

export function pyBool(x: PyValue | undefined): boolean {
  return x === undefined ? false : truthy(x);
}

/** int(x) of a float: truncation toward zero. */
function floatToInt(x: number): PyInt {
  if (Number.isNaN(x)) throw new PyError("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw new PyError("OverflowError", "cannot convert float infinity to integer");
  return normInt(BigInt(Math.trunc(x)));
}

export function pyInt(x: PyValue | undefined): PyInt {
  if (x === undefined) return 0;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number" || typeof x === "bigint") return x;
  if (x instanceof PyFloat) return floatToInt(x.v);
  if (typeof x === "string") return parseIntString(x);
  throw typeError(
    `int() argument must be a string, a bytes-like object or a real number, not '${typeName(x)}'`,
  );
}

export function pyFloat(x: PyValue | undefined): PyFloat {
  if (x === undefined) return floatValue(0);
  if (x instanceof PyFloat) return x;
  if (typeof x === "boolean") return floatValue(x ? 1 : 0);
  if (typeof x === "number" || typeof x === "bigint") return floatValue(intToFloat(x));
  if (typeof x === "string") return floatValue(parseFloatString(x));
  throw typeError(`float() argument must be a string or a real number, not '${typeName(x)}'`);
}

export function pyStr(x: PyValue | undefined, env: EvalEnv): string {
  if (x === undefined) return "";
  return toStr(x, env.budget);
}

export function pyAbs(x: PyValue): PyValue {
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number") return Math.abs(x);
  if (typeof x === "bigint") return normInt(x < 0n ? -x : x);
  if (x instanceof PyFloat) return floatValue(Math.abs(x.v));
  throw typeError(`bad operand type for abs(): '${typeName(x)}'`);
}

/** round(x, ndigits=None): the type of x is checked before ndigits, as in CPython. */
export function pyRound(x: PyValue, ndigits: PyValue | undefined): PyValue {
  const isInteger = typeof x === "boolean" || typeof x === "number" || typeof x === "bigint";
  if (!isInteger && !(x instanceof PyFloat)) {
    throw typeError(`type ${typeName(x)} doesn't define __round__ method`);
  }
  const n = ndigits === undefined || ndigits === null ? null : asIndex(ndigits);
  if (x instanceof PyFloat) {
    return n === null ? roundFloatToInt(x.v) : floatValue(roundFloatDigits(x.v, n));
  }
  const value: PyInt = typeof x === "boolean" ? (x ? 1 : 0) : x;
  return n === null ? value : roundIntDigits(value, n);
}
