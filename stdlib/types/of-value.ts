// The checker type of a run-time value (for bindings given as JSON, e.g. `stratumc eval`).
// Element and value types are unions of what the value holds, capped so that a large, varied
// value gives `any` instead of a huge union; very deep values give `any` below the depth cap.
import {
  PyBoundMethod,
  PyDict,
  PyFloat,
  PyGenerator,
  PyNamespace,
  PyTuple,
  type PyValue,
  PyView,
} from "../values/value";
import { ANY, BOOL, FLOAT, INT, NONE, STR, type Type } from "./type";
import { members, union } from "./union";

const MAX_MEMBERS = 8;
const MAX_DEPTH = 32;
const MAX_TUPLE = 16;

/** The union of the given types, or `any` once it has more than MAX_MEMBERS members. */
function cappedUnion(ts: Iterable<Type>): Type {
  let acc: Type | null = null;
  for (const t of ts) {
    acc = acc === null ? t : union(acc, t);
    if (acc.k === "any" || members(acc).length > MAX_MEMBERS) return ANY;
  }
  return acc ?? ANY;
}

function* mapIter<T>(xs: Iterable<T>, f: (x: T) => Type): Iterable<Type> {
  for (const x of xs) yield f(x);
}

function dictType(d: PyDict, depth: number): Type {
  const entries = [...d.entries.values()];
  const allStr = entries.every(([k]) => typeof k === "string");
  const key = entries.length === 0 || allStr ? STR : cappedUnion(mapIter(entries, ([k]) => of(k, depth + 1)));
  const value = cappedUnion(mapIter(entries, ([, v]) => of(v, depth + 1)));
  return { k: "dict", key, value };
}

function of(v: PyValue, depth: number): Type {
  if (depth > MAX_DEPTH) return ANY;
  if (v === null) return NONE;
  switch (typeof v) {
    case "boolean":
      return BOOL;
    case "number":
    case "bigint":
      return INT;
    case "string":
      return STR;
  }
  if (Array.isArray(v)) return { k: "list", elem: cappedUnion(mapIter(v, (x) => of(x, depth + 1))) };
  if (v instanceof PyFloat) return FLOAT;
  if (v instanceof PyTuple) {
    if (v.items.length <= MAX_TUPLE) return { k: "tuple", elems: v.items.map((x) => of(x, depth + 1)) };
    return { k: "tupleOf", elem: cappedUnion(mapIter(v.items, (x) => of(x, depth + 1))) };
  }
  if (v instanceof PyDict) return dictType(v, depth);
  if (v instanceof PyNamespace) return { k: "ns", of: dictType(v.dict, depth) };
  if (v instanceof PyView) {
    const d = dictType(v.dict, depth) as { k: "dict"; key: Type; value: Type };
    if (v.kind === "keys") return { k: "keys", key: d.key };
    if (v.kind === "values") return { k: "values", value: d.value };
    return { k: "items", key: d.key, value: d.value };
  }
  if (v instanceof PyGenerator) return { k: "generator", elem: ANY };
  if (v instanceof PyBoundMethod) return { k: "method", name: v.name, receiver: of(v.receiver, depth + 1) };
  return ANY;
}

export function typeOfValue(v: PyValue): Type {
  return of(v, 0);
}
