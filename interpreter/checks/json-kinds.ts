// The JSON view of run-time values shared by the result checks: the JSON kind of a value, objects
// and arrays (a namespace counts as its object, a tuple as its array), and schema/IR JSON values
// turned into Python values for comparisons and reprs.
import type { JsonValue } from "../../checker/base/json";
import { fromJsonValue, jsonKey } from "../../stdlib/values/json";
import { PyDict, PyFloat, type PyInt, PyNamespace, PyTuple, type PyValue } from "../../stdlib/values/value";

/** The JSON kind names used in messages (docs/reference/runtime.md §4.2). */
export type JsonKind = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

/** The JSON kind of a value: `integer` for ints, `number` for floats (even integral ones). */
export function jsonKind(v: PyValue): JsonKind {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "number":
    case "bigint":
      return "integer";
    case "string":
      return "string";
  }
  if (v instanceof PyFloat) return "number";
  if (asArray(v) !== null) return "array";
  // Dicts and namespaces; results are JSON, so nothing else reaches the checks.
  return "object";
}

/** The dict of an object value (a namespace counts as its dict), else null. */
export function asObject(v: PyValue): PyDict | null {
  if (v instanceof PyDict) return v;
  if (v instanceof PyNamespace) return v.dict;
  return null;
}

/** The items of an array value (a tuple counts as an array), else null. */
export function asArray(v: PyValue): readonly PyValue[] | null {
  if (Array.isArray(v)) return v as readonly PyValue[];
  if (v instanceof PyTuple) return v.items;
  return null;
}

/** An int (never a boolean). */
function isInt(v: PyValue): v is PyInt {
  return typeof v === "number" || typeof v === "bigint";
}

/** An int or a float with an integral value (`2.0`): what `integer` accepts. */
export function isIntegral(v: PyValue): boolean {
  return isInt(v) || (v instanceof PyFloat && Number.isInteger(v.v));
}

/** An int or a float (never a boolean). */
export function isNumeric(v: PyValue): v is PyInt | PyFloat {
  return isInt(v) || v instanceof PyFloat;
}

/** The (key name, value) pairs of an object in insertion order; non-string keys as JSON writes them. */
export function objectEntries(d: PyDict): Array<readonly [string, PyValue]> {
  const out: Array<readonly [string, PyValue]> = [];
  for (const [k, v] of d.entries.values()) out.push([typeof k === "string" ? k : jsonKey(k), v]);
  return out;
}

/**
 * A JSON value from the IR (schema or `values`) as a Python value. The IR keeps numbers as JS
 * numbers, so an integral number is an int (`2.0` written in YAML reads back as `2`).
 */
export function pyFromJson(v: JsonValue): PyValue {
  return fromJsonValue(v);
}

/** A schema number as a Python number: integral → int, else float. */
export function pyNumber(x: number): PyInt | PyFloat {
  const v = fromJsonValue(x);
  return typeof v === "number" || typeof v === "bigint" ? v : new PyFloat(x);
}
