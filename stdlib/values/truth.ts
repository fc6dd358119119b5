// Truthiness (docs/reference/language.md §10.8.1).
import { PyDict, PyFloat, PyTuple, type PyValue, PyView } from "./value";

export function truthy(v: PyValue): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
      return v !== 0;
    case "bigint":
      return true; // never zero: normalised bigints lie outside the safe range
    case "string":
      return v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyFloat) return v.v !== 0; // NaN is truthy
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyDict) return v.size > 0;
  if (v instanceof PyView) return v.dict.size > 0;
  return true; // namespaces, generators, bound methods
}
