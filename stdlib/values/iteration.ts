// Iteration (docs/reference/language.md §10.8.10): one element charged per element produced (docs/reference/language.md §10.15).
import type { Budget } from "./budget";
import { typeError } from "./errors";
import { PyDict, PyGenerator, PyNamespace, PyTuple, type PyValue, PyView, typeName } from "./value";

function* dictEntries(d: PyDict, kind: PyView["kind"]): Generator<PyValue> {
  for (const [k, v] of d.entries.values()) {
    if (kind === "keys") yield k;
    else if (kind === "values") yield v;
    else yield new PyTuple([k, v]);
  }
}

/** The plain iterator of an iterable value; TypeError `'<t>' object is not iterable` otherwise. */
function rawIterator(v: PyValue): Iterator<PyValue> {
  if (typeof v === "string") return v[Symbol.iterator](); // code points (lone surrogates singly)
  if (Array.isArray(v)) return v[Symbol.iterator]();
  if (v instanceof PyTuple) return v.items[Symbol.iterator]();
  if (v instanceof PyDict) return dictEntries(v, "keys");
  if (v instanceof PyNamespace) return dictEntries(v.dict, "keys");
  if (v instanceof PyView) return dictEntries(v.dict, v.kind);
  // No `return` method: breaking out of a loop must not close the generator (Python keeps it).
  if (v instanceof PyGenerator) return { next: () => v.iterator.next() };
  throw typeError(`'${typeName(v)}' object is not iterable`);
}

/** Whether `iterate(v)` succeeds. */
export function isIterable(v: PyValue): boolean {
  return (
    typeof v === "string" ||
    Array.isArray(v) ||
    v instanceof PyTuple ||
    v instanceof PyDict ||
    v instanceof PyNamespace ||
    v instanceof PyView ||
    v instanceof PyGenerator
  );
}

/**
 * Iterates `v` (the error is raised by this call, not by the first `next`). With a budget, 1 step
 * is charged for each element produced.
 */
export function iterate(v: PyValue, budget?: Budget): Iterator<PyValue> {
  const it = rawIterator(v);
  if (budget === undefined) return it;
  return {
    next(): IteratorResult<PyValue> {
      const r = it.next();
      if (!r.done) budget.charge(1);
      return r;
    },
  };
}

/** All remaining elements of an iterable as a new array (charged like `iterate`). */
export function toArray(v: PyValue, budget?: Budget): PyValue[] {
  if (Array.isArray(v)) {
    budget?.charge(v.length);
    return v.slice();
  }
  if (v instanceof PyTuple) {
    budget?.charge(v.items.length);
    return v.items.slice();
  }
  const out: PyValue[] = [];
  const it = iterate(v, budget);
  for (let r = it.next(); !r.done; r = it.next()) out.push(r.value);
  return out;
}

export function makeGenerator(it: Iterator<PyValue>): PyGenerator {
  return new PyGenerator(it);
}
