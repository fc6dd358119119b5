// list/tuple count and index, dict/namespace get/keys/values/items (docs/reference/language.md §10.10).
import { dictGet } from "../values/dict";
import { pyEquals } from "../values/equality";
import { typeError, valueError } from "../values/errors";
import { repr } from "../values/repr";
import { PyDict, PyNamespace, type PyValue, PyView, type ViewKind } from "../values/value";
import { clampIndex } from "./common";
import type { EvalEnv } from "./env";

export function sequenceCount(items: readonly PyValue[], x: PyValue, env: EvalEnv): number {
  let count = 0;
  for (const item of items) {
    env.budget.charge(1);
    if (pyEquals(item, x, env.budget)) count++;
  }
  return count;
}

/** list.index/tuple.index bounds: ints only (an explicit None is an error, as in CPython). */
function indexBound(v: PyValue | undefined, fallback: number, length: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== "boolean" && typeof v !== "number" && typeof v !== "bigint") {
    throw typeError("slice indices must be integers or have an __index__ method");
  }
  let n = clampIndex(typeof v === "boolean" ? (v ? 1 : 0) : v);
  if (n < 0) {
    n += length;
    if (n < 0) n = 0;
  }
  return n;
}

export function sequenceIndex(
  kind: "list" | "tuple",
  items: readonly PyValue[],
  x: PyValue,
  start: PyValue | undefined,
  end: PyValue | undefined,
  env: EvalEnv,
): number {
  const from = indexBound(start, 0, items.length);
  const to = Math.min(indexBound(end, items.length, items.length), items.length);
  for (let i = from; i < to; i++) {
    env.budget.charge(1);
    if (pyEquals(items[i] as PyValue, x, env.budget)) return i;
  }
  if (kind === "tuple") throw valueError("tuple.index(x): x not in tuple");
  throw valueError(`${repr(x, env.budget)} is not in list`);
}

/** The dict behind a dict or namespace receiver. */
function dictOf(receiver: PyValue): PyDict {
  if (receiver instanceof PyNamespace) return receiver.dict;
  if (receiver instanceof PyDict) return receiver;
  throw new TypeError("dict method on a non-dict receiver");
}

/** dict.get(key, default=None); an unhashable key raises `unhashable type: '<type>'`. */
export function dictGetMethod(receiver: PyValue, key: PyValue, fallback: PyValue | undefined): PyValue {
  const value = dictGet(dictOf(receiver), key);
  return value === undefined ? (fallback ?? null) : value;
}

export function dictView(receiver: PyValue, kind: ViewKind): PyView {
  return new PyView(kind, dictOf(receiver));
}
