// fast-check arbitraries of run-time values of a given checker type (for property tests).
// Supported types: none, bool, int, float, str (with or without enumerated values), list, tuple,
// dict with str keys, record (every field present, optional ones possibly None), ns over a record
// or dict, unions. `any` produces an arbitrary JSON-like value.
import fc from "fast-check";
import type { Type } from "../../stdlib/types/type";
import { makeDict } from "../../stdlib/values/dict";
import { makeNamespace } from "../../stdlib/values/namespace";
import { normInt, PyDict, PyFloat, PyTuple, type PyValue } from "../../stdlib/values/value";

const CHARS = ["a", "b", "z", "A", " ", "1", "_", "-", ",", "é", "ß", "Σ", "中", "😀", "\n", "'"];

export const arbitraryStr: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...CHARS), { maxLength: 6 })
  .map((cs) => cs.join(""));

export const arbitraryInt: fc.Arbitrary<PyValue> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -10, max: 100 }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(normInt) },
);

export const arbitraryFloat: fc.Arbitrary<PyValue> = fc
  .oneof(
    fc.constantFrom(0, -0, 0.1, 0.5, 1.5, -2.25, 1e16, 1e-7, 2.675),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
  )
  .map((x) => new PyFloat(x));

const KEYS = ["a", "b", "k", "name", "x1"];

export function arbitraryValueOf(t: Type): fc.Arbitrary<PyValue> {
  switch (t.k) {
    case "none":
      return fc.constant(null);
    case "bool":
      return fc.boolean();
    case "int":
      return t.values ? fc.constantFrom(...t.values) : arbitraryInt;
    case "float":
      return t.values ? fc.constantFrom(...t.values.map((v) => new PyFloat(v))) : arbitraryFloat;
    case "str":
      return t.values ? fc.constantFrom(...t.values) : arbitraryStr;
    case "list":
      return fc.array(arbitraryValueOf(t.elem), { maxLength: 4 });
    case "tuple":
      return fc.tuple(...t.elems.map(arbitraryValueOf)).map((items) => new PyTuple(items));
    case "tupleOf":
      return fc.array(arbitraryValueOf(t.elem), { maxLength: 4 }).map((items) => new PyTuple(items));
    case "dict":
      return fc
        .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), arbitraryValueOf(t.value)), {
          maxLength: 4,
          selector: ([k]) => k,
        })
        .map((entries) => makeDict(entries));
    case "record": {
      const fields = [...t.record.fields.entries()];
      return fc
        .tuple(...fields.map(([, f]) => arbitraryValueOf(f.type)))
        .map((values) => makeDict(fields.map(([name], i) => [name, values[i] ?? null] as const)));
    }
    case "ns":
      return arbitraryValueOf(t.of).map((d) => (d instanceof PyDict ? makeNamespace(d) : d));
    case "union":
      return fc.oneof(...t.members.map(arbitraryValueOf));
    default:
      return fc.jsonValue({ maxDepth: 2 }).map(fromPlain);
  }
}

function fromPlain(v: unknown): PyValue {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") return Number.isInteger(v) ? v : new PyFloat(v);
  if (Array.isArray(v)) return v.map(fromPlain);
  if (typeof v === "object")
    return makeDict(Object.entries(v as object).map(([k, x]) => [k, fromPlain(x)] as const));
  return null;
}
