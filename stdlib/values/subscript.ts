// Subscripts and slices (docs/reference/language.md §10.8.8). Strings index and slice by code point.
import type { Budget } from "./budget";
import { hashKey } from "./dict";
import { PyError, typeError, valueError } from "./errors";
import { fitsIndex } from "./numbers";
import { repr } from "./repr";
import { cpAt, cpLength, isBmpOnly, toCodePoints } from "./strings";
import { MAX_SAFE, PyDict, PyNamespace, PyTuple, type PyValue, typeName } from "./value";

function notSubscriptable(obj: PyValue): PyError {
  return typeError(`'${typeName(obj)}' object is not subscriptable`);
}

function isIndex(v: PyValue): v is number | bigint | boolean {
  return typeof v === "number" || typeof v === "bigint" || typeof v === "boolean";
}

/** An index value as a JS number; IndexError when it does not fit a Py_ssize_t. */
function indexNumber(v: number | bigint | boolean): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint" && !fitsIndex(v)) {
    throw new PyError("IndexError", "cannot fit 'int' into an index-sized integer");
  }
  return Number(v); // a bigint index is out of range for any real sequence anyway
}

function dictItem(d: PyDict, key: PyValue): PyValue {
  const entry = d.entries.get(hashKey(key));
  if (entry === undefined) throw new PyError("KeyError", repr(key));
  return entry[1];
}

function element(items: readonly PyValue[], index: PyValue, kind: "list" | "tuple"): PyValue {
  if (!isIndex(index)) throw typeError(`${kind} indices must be integers or slices, not ${typeName(index)}`);
  let i = indexNumber(index);
  if (i < 0) i += items.length;
  if (i < 0 || i >= items.length) throw new PyError("IndexError", `${kind} index out of range`);
  return items[i] ?? null;
}

/** `obj[index]`. */
export function getItem(obj: PyValue, index: PyValue, _budget?: Budget): PyValue {
  if (Array.isArray(obj)) return element(obj, index, "list");
  if (obj instanceof PyTuple) return element(obj.items, index, "tuple");
  if (typeof obj === "string") {
    if (!isIndex(index)) throw typeError(`string indices must be integers, not '${typeName(index)}'`);
    let i = indexNumber(index);
    if (i < 0) i += cpLength(obj);
    const ch = i >= 0 ? cpAt(obj, i) : undefined;
    if (ch === undefined) throw new PyError("IndexError", "string index out of range");
    return ch;
  }
  if (obj instanceof PyDict) return dictItem(obj, index);
  if (obj instanceof PyNamespace) return dictItem(obj.dict, index);
  throw notSubscriptable(obj);
}

/** A slice bound as a JS number (big values clamp: any magnitude beyond 2^53 acts the same). */
function sliceBound(v: PyValue): number | null {
  if (v === null) return null;
  if (!isIndex(v)) throw typeError("slice indices must be integers or None or have an __index__ method");
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return v > 0n ? MAX_SAFE : -MAX_SAFE;
  return v;
}

interface SliceRange {
  readonly start: number;
  readonly step: number;
  /** How many indices the slice selects: start, start + step, … */
  readonly count: number;
}

function clampIndex(i: number, length: number, step: number): number {
  if (i < 0) {
    i += length;
    if (i < 0) i = step < 0 ? -1 : 0;
  } else if (i >= length) i = step < 0 ? length - 1 : length;
  return i;
}

/** CPython's PySlice_Unpack + PySlice_AdjustIndices (step checked first, then start, then stop). */
function sliceRange(length: number, lower: PyValue, upper: PyValue, step: PyValue): SliceRange {
  const st = sliceBound(step) ?? 1;
  if (st === 0) throw valueError("slice step cannot be zero");
  const start = clampIndex(sliceBound(lower) ?? (st < 0 ? MAX_SAFE : 0), length, st);
  const stop = clampIndex(sliceBound(upper) ?? (st < 0 ? -MAX_SAFE : MAX_SAFE), length, st);
  let count = 0;
  if (st < 0) {
    if (stop < start) count = Math.floor((start - stop - 1) / -st) + 1;
  } else if (start < stop) count = Math.floor((stop - start - 1) / st) + 1;
  return { start, step: st, count };
}

function pick<T>(items: ArrayLike<T>, r: SliceRange): T[] {
  const out: T[] = new Array(r.count);
  for (let k = 0, i = r.start; k < r.count; k++, i += r.step) out[k] = items[i] as T;
  return out;
}

/** `obj[lower:upper:step]`; absent parts are null. The result size is charged before building. */
export function getSlice(
  obj: PyValue,
  lower: PyValue,
  upper: PyValue,
  step: PyValue,
  budget?: Budget,
): PyValue {
  if (obj instanceof PyDict || obj instanceof PyNamespace) throw typeError("unhashable type: 'slice'");
  if (typeof obj === "string") {
    const cps = isBmpOnly(obj) ? null : toCodePoints(obj);
    const r = sliceRange(cps ? cps.length : obj.length, lower, upper, step);
    budget?.charge(r.count);
    if (r.count === 0) return "";
    if (cps === null && r.step === 1) return obj.slice(r.start, r.start + r.count);
    return pick(cps ?? obj, r).join("");
  }
  const items = Array.isArray(obj) ? obj : obj instanceof PyTuple ? obj.items : null;
  if (items === null) throw notSubscriptable(obj);
  const r = sliceRange(items.length, lower, upper, step);
  budget?.charge(r.count);
  const out = pick(items, r);
  return obj instanceof PyTuple ? new PyTuple(out) : out;
}
