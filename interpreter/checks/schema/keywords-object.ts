// Object keywords (properties, patternProperties, additionalProperties, unevaluatedProperties,
// required, minProperties, maxProperties, dependentRequired, dependentSchemas, propertyNames),
// with the messages of Python's jsonschema 4.x. Properties are visited in the order the schema
// lists them; names the instance adds are visited in the instance's order.
import type { JsonObject, JsonValue } from "../../../checker/base/json";
import { dictGetStr, dictHas, isHashable } from "../../../stdlib/values/dict";
import { repr } from "../../../stdlib/values/repr";
import { compareCodePoints } from "../../../stdlib/values/strings";
import type { PyDict, PyValue } from "../../../stdlib/values/value";
import { asObject, objectEntries, pyFromJson } from "../json-kinds";
import { evaluatedKeys } from "./evaluated";
import type { KeywordCheck } from "./keywords";
import { extrasMessage } from "./keywords-array";
import { unsupportedMessage } from "./regex";
import { isDone, isSchemaObject, own, report } from "./sink";
import type { SchemaValidator } from "./validator";

/** Whether the object has the key a schema names (any JSON value; unhashable names never match). */
function hasKey(object: PyDict, key: JsonValue): boolean {
  if (typeof key === "string") return dictGetStr(object, key) !== undefined;
  const pyKey = pyFromJson(key);
  return isHashable(pyKey) && dictHas(object, pyKey);
}

function sortedNames(names: readonly string[]): string[] {
  return [...names].sort(compareCodePoints);
}

const properties: KeywordCheck = (v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null || !isSchemaObject(value)) return;
  for (const name of Object.keys(value)) {
    if (isDone(sink)) return;
    const propertyValue = dictGetStr(object, name);
    if (propertyValue !== undefined) v.descend(propertyValue, value[name] ?? true, sink);
  }
};

const patternProperties: KeywordCheck = (v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null || !isSchemaObject(value)) return;
  const entries = objectEntries(object);
  for (const pattern of Object.keys(value)) {
    for (const [name, propertyValue] of entries) {
      if (isDone(sink)) return;
      const found = v.search(pattern, name);
      if (found === true) v.descend(propertyValue, value[pattern] ?? true, sink);
      else if (found !== null && found !== false) {
        report(sink, () => unsupportedMessage(pattern, found.unsupported));
        break; // once per pattern
      }
    }
  }
};

/** Names not covered by `properties` nor by a `patternProperties` pattern (jsonschema's order: the instance's). */
function additionalNames(
  v: SchemaValidator,
  object: PyDict,
  schema: JsonObject,
): Array<readonly [string, PyValue]> {
  const declared = own(schema, "properties");
  const patternSchemas = own(schema, "patternProperties");
  const patterns = isSchemaObject(patternSchemas) ? Object.keys(patternSchemas) : [];
  return objectEntries(object).filter(
    ([name]) =>
      !(isSchemaObject(declared) && Object.hasOwn(declared, name)) &&
      !patterns.some((p) => v.search(p, name) === true),
  );
}

const additionalProperties: KeywordCheck = (v, value, instance, schema, sink) => {
  const object = asObject(instance);
  if (object === null) return;
  const extras = additionalNames(v, object, schema);
  if (isSchemaObject(value)) {
    for (const [, extraValue] of extras) {
      if (isDone(sink)) return;
      v.descend(extraValue, value, sink);
    }
    return;
  }
  if (value !== false || extras.length === 0) return;
  const names = sortedNames(extras.map(([name]) => name));
  const patternSchemas = own(schema, "patternProperties");
  if (patternSchemas !== undefined) {
    const patterns = isSchemaObject(patternSchemas) ? sortedNames(Object.keys(patternSchemas)) : [];
    report(
      sink,
      () =>
        `${names.map((n) => repr(n)).join(", ")} ${names.length === 1 ? "does" : "do"} not match any of the regexes: ${patterns.map((p) => repr(p)).join(", ")}`,
    );
    return;
  }
  report(sink, () => `Additional properties are not allowed (${extrasMessage(names)} unexpected)`);
};

const unevaluatedProperties: KeywordCheck = (v, value, instance, schema, sink) => {
  const object = asObject(instance);
  if (object === null) return;
  const evaluated = evaluatedKeys(v, object, schema);
  // As jsonschema: a name is listed once per error its value has under the subschema.
  const unevaluated: string[] = [];
  for (const [name, propertyValue] of objectEntries(object)) {
    if (evaluated.has(name)) continue;
    const errors = sink.firstOnly
      ? v.isValid(propertyValue, value)
        ? 0
        : 1
      : v.subErrors(propertyValue, value).length;
    for (let i = 0; i < errors; i++) unevaluated.push(name);
  }
  if (unevaluated.length === 0) return;
  if (value === false) {
    report(
      sink,
      () => `Unevaluated properties are not allowed (${extrasMessage(sortedNames(unevaluated))} unexpected)`,
    );
  } else {
    report(
      sink,
      () =>
        `Unevaluated properties are not valid under the given schema (${extrasMessage(unevaluated)} unevaluated and invalid)`,
    );
  }
};

const required: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null || !Array.isArray(value)) return;
  for (const name of value as readonly JsonValue[]) {
    if (isDone(sink)) return;
    if (!hasKey(object, name)) report(sink, () => `${repr(pyFromJson(name))} is a required property`);
  }
};

const minProperties: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null || typeof value !== "number" || !(object.size < value)) return;
  report(
    sink,
    () => `${repr(instance)} ${value === 1 ? "should be non-empty" : "does not have enough properties"}`,
  );
};

const maxProperties: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null || typeof value !== "number" || !(object.size > value)) return;
  report(
    sink,
    () => `${repr(instance)} ${value === 0 ? "is expected to be empty" : "has too many properties"}`,
  );
};

const dependentRequired: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null || !isSchemaObject(value)) return;
  for (const name of Object.keys(value)) {
    const dependencies = value[name];
    if (dictGetStr(object, name) === undefined || !Array.isArray(dependencies)) continue;
    for (const dependency of dependencies as readonly JsonValue[]) {
      if (isDone(sink)) return;
      if (!hasKey(object, dependency)) {
        report(sink, () => `${repr(pyFromJson(dependency))} is a dependency of ${repr(name)}`);
      }
    }
  }
};

const dependentSchemas: KeywordCheck = (v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null || !isSchemaObject(value)) return;
  for (const name of Object.keys(value)) {
    if (isDone(sink)) return;
    if (dictGetStr(object, name) !== undefined) v.descend(instance, value[name] ?? true, sink);
  }
};

const propertyNames: KeywordCheck = (v, value, instance, _schema, sink) => {
  const object = asObject(instance);
  if (object === null) return;
  for (const [name] of objectEntries(object)) {
    if (isDone(sink)) return;
    v.descend(name, value, sink);
  }
};

export const OBJECT_KEYWORDS: ReadonlyArray<readonly [string, KeywordCheck]> = [
  ["properties", properties],
  ["patternProperties", patternProperties],
  ["additionalProperties", additionalProperties],
  ["unevaluatedProperties", unevaluatedProperties],
  ["required", required],
  ["minProperties", minProperties],
  ["maxProperties", maxProperties],
  ["dependentRequired", dependentRequired],
  ["dependentSchemas", dependentSchemas],
  ["propertyNames", propertyNames],
];
