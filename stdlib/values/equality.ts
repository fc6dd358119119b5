// Equality `==` and identity `is` (docs/reference/language.md §10.8.2, docs/reference/language.md §10.8.4). Equality never raises.
import type { Budget } from "./budget";
import { compareNumbers, isNumber } from "./numbers";
import { PyDict, PyFloat, PyNamespace, PyTuple, type PyValue, PyView } from "./value";

export function pyEquals(a: PyValue, b: PyValue, budget?: Budget): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (typeof a === "string") return a === b;
  if (isNumber(a)) return isNumber(b) && compareNumbers(a, b) === 0;
  if (a === null) return b === null;
  if (Array.isArray(a)) return Array.isArray(b) && sequenceEquals(a, b, budget);
  if (a instanceof PyTuple) return b instanceof PyTuple && sequenceEquals(a.items, b.items, budget);
  if (a instanceof PyDict) return b instanceof PyDict && dictEquals(a, b, budget);
  if (a instanceof PyNamespace) return b instanceof PyNamespace && dictEquals(a.dict, b.dict, budget);
  if (a instanceof PyView) return b instanceof PyView && viewEquals(a, b, budget);
  return a === b; // generators and bound methods: identity
}

function sequenceEquals(a: readonly PyValue[], b: readonly PyValue[], budget?: Budget): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    budget?.charge(1);
    if (!pyEquals(a[i] ?? null, b[i] ?? null, budget)) return false;
  }
  return true;
}

/** Same keys (by hash equality) with equal values; order does not matter. */
function dictEquals(a: PyDict, b: PyDict, budget?: Budget): boolean {
  if (a.size !== b.size) return false;
  for (const [hk, [, va]] of a.entries) {
    budget?.charge(1);
    const eb = b.entries.get(hk);
    if (eb === undefined || !pyEquals(va, eb[1], budget)) return false;
  }
  return true;
}

function viewEquals(a: PyView, b: PyView, budget?: Budget): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "values":
      return a === b;
    case "items":
      return dictEquals(a.dict, b.dict, budget);
    case "keys": {
      if (a.dict.size !== b.dict.size) return false;
      for (const hk of a.dict.entries.keys()) {
        budget?.charge(1);
        if (!b.dict.entries.has(hk)) return false;
      }
      return true;
    }
  }
}

/**
 * `a is b`: same None/boolean, same container object, or ints/floats/strings of the same kind with
 * equal values (floats by bit-level sameness, so `-0.0 is 0.0` is False).
 */
export function pyIs(a: PyValue, b: PyValue): boolean {
  if (a === b) return true;
  if (a instanceof PyFloat && b instanceof PyFloat) return Object.is(a.v, b.v);
  return false;
}
