// Keywords that apply to every kind of value: type, enum, const, $ref and the applicators that
// combine subschemas in place (allOf, anyOf, oneOf, not, if/then/else). Messages are those of
// Python's jsonschema 4.x (docs/reference/runtime.md §4.3).
import type { JsonValue } from "../../../checker/base/json";
import { repr } from "../../../stdlib/values/repr";
import type { PyValue } from "../../../stdlib/values/value";
import { asArray, asObject, isIntegral, isNumeric, pyFromJson } from "../json-kinds";
import { schemaEqual } from "./equal";
import type { KeywordCheck } from "./keywords";
import { isDone, own, report } from "./sink";

/** jsonschema's `is_type` for the draft 2020-12 type names; an unknown name matches nothing. */
function isOfType(instance: PyValue, type: JsonValue): boolean {
  switch (type) {
    case "null":
      return instance === null;
    case "boolean":
      return typeof instance === "boolean";
    case "integer":
      return isIntegral(instance);
    case "number":
      return isNumeric(instance);
    case "string":
      return typeof instance === "string";
    case "array":
      return asArray(instance) !== null;
    case "object":
      return asObject(instance) !== null;
    default:
      return false;
  }
}

const type: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const types: readonly JsonValue[] = Array.isArray(value) ? value : [value];
  if (types.some((t) => isOfType(instance, t))) return;
  report(sink, () => `${repr(instance)} is not of type ${types.map((t) => repr(pyFromJson(t))).join(", ")}`);
};

const enumKeyword: KeywordCheck = (_v, value, instance, _schema, sink) => {
  if (!Array.isArray(value)) return;
  const options = (value as readonly JsonValue[]).map(pyFromJson);
  if (options.some((option) => schemaEqual(option, instance))) return;
  report(sink, () => `${repr(instance)} is not one of ${repr(options)}`);
};

const constKeyword: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const expected = pyFromJson(value);
  if (!schemaEqual(instance, expected)) report(sink, () => `${repr(expected)} was expected`);
};

const ref: KeywordCheck = (v, value, instance, _schema, sink) => {
  if (typeof value !== "string") return;
  const target = v.resolve(value);
  if (target !== undefined) v.descend(instance, target, sink);
};

const allOf: KeywordCheck = (v, value, instance, _schema, sink) => {
  if (!Array.isArray(value)) return;
  for (const subschema of value as readonly JsonValue[]) {
    if (isDone(sink)) return;
    v.descend(instance, subschema, sink);
  }
};

const anyOf: KeywordCheck = (v, value, instance, _schema, sink) => {
  if (!Array.isArray(value)) return;
  if ((value as readonly JsonValue[]).some((subschema) => v.isValid(instance, subschema))) return;
  report(sink, () => `${repr(instance)} is not valid under any of the given schemas`);
};

const oneOf: KeywordCheck = (v, value, instance, _schema, sink) => {
  if (!Array.isArray(value)) return;
  const subschemas = value as readonly JsonValue[];
  const first = subschemas.findIndex((subschema) => v.isValid(instance, subschema));
  if (first < 0) {
    report(sink, () => `${repr(instance)} is not valid under any of the given schemas`);
    return;
  }
  const moreValid = subschemas.slice(first + 1).filter((subschema) => v.isValid(instance, subschema));
  if (moreValid.length === 0) return;
  // As jsonschema: the later valid schemas first, then the first valid one.
  const valid = [...moreValid, subschemas[first] ?? true];
  report(
    sink,
    () => `${repr(instance)} is valid under each of ${valid.map((s) => repr(pyFromJson(s))).join(", ")}`,
  );
};

const not: KeywordCheck = (v, value, instance, _schema, sink) => {
  if (!v.isValid(instance, value)) return;
  report(sink, () => `${repr(instance)} should not be valid under ${repr(pyFromJson(value))}`);
};

/** `then` / `else` have no check of their own: `if` applies them, at its own place in the order. */
const ifKeyword: KeywordCheck = (v, value, instance, schema, sink) => {
  const branch = v.isValid(instance, value) ? own(schema, "then") : own(schema, "else");
  if (branch !== undefined) v.descend(instance, branch, sink);
};

export const CORE_KEYWORDS: ReadonlyArray<readonly [string, KeywordCheck]> = [
  ["type", type],
  ["enum", enumKeyword],
  ["const", constKeyword],
  ["$ref", ref],
  ["allOf", allOf],
  ["anyOf", anyOf],
  ["oneOf", oneOf],
  ["not", not],
  ["if", ifKeyword],
];
