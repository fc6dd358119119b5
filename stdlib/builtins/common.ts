// Argument conversions shared by builtins and methods.
import { typeError } from "../values/errors";
import { iterate } from "../values/iteration";
import { type PyInt, type PyValue, typeName } from "../values/value";
import type { EvalEnv } from "./env";

/** An int argument (bool accepted), else `'<type>' object cannot be interpreted as an integer`. */
export function asIndex(v: PyValue): PyInt {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" || typeof v === "bigint") return v;
  throw typeError(`'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** Clamps an int to a JS-safe index range (CPython clamps slice bounds to Py_ssize_t). */
export function clampIndex(n: PyInt): number {
  if (typeof n === "number") return n;
  return n > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
}

/** An optional slice bound of str.find/count/startswith…: None/absent or an int. */
export function sliceBound(v: PyValue | undefined): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "bigint") return clampIndex(asIndex(v));
  throw typeError("slice indices must be integers or None or have an __index__ method");
}

/**
 * CPython's ADJUST_INDICES: negative bounds count from the end (then clamp at 0), `end` clamps at
 * `length`; `start` may stay beyond the length.
 */
export function adjustIndices(start: number | null, end: number | null, length: number): [number, number] {
  let s = start ?? 0;
  let e = end ?? length;
  if (e > length) e = length;
  else if (e < 0) {
    e += length;
    if (e < 0) e = 0;
  }
  if (s < 0) {
    s += length;
    if (s < 0) s = 0;
  }
  return [s, e];
}

/**
 * Iterates `v`, one budget step per element (charged by `iterate`, docs/reference/language.md §10.15). `iterate` runs at
 * once, so a non-iterable raises before anything else happens (as CPython's PyObject_GetIter).
 */
export function elements(v: PyValue, env: EvalEnv): Iterable<PyValue> {
  const it = iterate(v, env.budget);
  return { [Symbol.iterator]: () => it };
}
