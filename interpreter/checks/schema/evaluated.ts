// What `unevaluatedProperties` / `unevaluatedItems` consider evaluated, following Python's
// jsonschema (`find_evaluated_property_keys_by_schema`, `find_evaluated_item_indexes_by_schema`):
// keys and indexes covered by the schema's own keywords, by `$ref`, by the subschemas of
// allOf/anyOf/oneOf that the value satisfies, and by the branch of if/then/else that applies.
import type { JsonObject, JsonValue } from "../../../checker/base/json";
import type { PyDict, PyValue } from "../../../stdlib/values/value";
import { objectEntries } from "../json-kinds";
import { isSchemaObject, own } from "./sink";
import type { SchemaValidator } from "./validator";

/** Subschemas whose annotations count, with the schema itself first. */
function* inPlaceSubschemas(v: SchemaValidator, instance: PyValue, schema: JsonObject): Generator<JsonValue> {
  const ref = own(schema, "$ref");
  if (typeof ref === "string") {
    const target = v.resolve(ref);
    if (target !== undefined) yield target;
  }
  const ifSchema = own(schema, "if");
  if (ifSchema !== undefined) {
    if (v.isValid(instance, ifSchema)) {
      yield ifSchema;
      const then = own(schema, "then");
      if (then !== undefined) yield then;
    } else {
      const otherwise = own(schema, "else");
      if (otherwise !== undefined) yield otherwise;
    }
  }
  for (const keyword of ["allOf", "oneOf", "anyOf"]) {
    const list = own(schema, keyword);
    if (!Array.isArray(list)) continue;
    for (const subschema of list as readonly JsonValue[]) {
      if (v.isValid(instance, subschema)) yield subschema;
    }
  }
}

/**
 * Property names of `object` evaluated by `schema` (a schema seen twice adds nothing new). The
 * `unevaluatedProperties` being checked does not count for its own schema (`top`), only nested ones.
 */
export function evaluatedKeys(
  v: SchemaValidator,
  object: PyDict,
  schema: JsonValue,
  seen: Set<JsonObject> = new Set(),
  top = true,
): Set<string> {
  const keys = new Set<string>();
  if (!isSchemaObject(schema) || seen.has(schema)) return keys;
  seen.add(schema);
  const names = objectEntries(object).map(([name]) => name);
  for (const keyword of ["properties", "additionalProperties", "unevaluatedProperties"]) {
    if (top && keyword === "unevaluatedProperties") continue;
    const value = own(schema, keyword);
    if (value === true) for (const name of names) keys.add(name);
    else if (isSchemaObject(value)) {
      // properties: the names it lists; additional/unevaluated schemas: every other name (what
      // jsonschema means to do; it reads the subschema's keys as names, a bug not copied here)
      for (const name of names) if (keyword !== "properties" || Object.hasOwn(value, name)) keys.add(name);
    }
  }
  const patterns = own(schema, "patternProperties");
  if (isSchemaObject(patterns)) {
    for (const name of names) {
      if (Object.keys(patterns).some((p) => v.search(p, name) === true)) keys.add(name);
    }
  }
  const dependent = own(schema, "dependentSchemas");
  if (isSchemaObject(dependent)) {
    for (const [name, subschema] of Object.entries(dependent)) {
      if (names.includes(name))
        for (const key of evaluatedKeys(v, object, subschema, seen, false)) keys.add(key);
    }
  }
  for (const subschema of inPlaceSubschemas(v, object, schema)) {
    for (const key of evaluatedKeys(v, object, subschema, seen, false)) keys.add(key);
  }
  return keys;
}

/** Indexes of `array` evaluated by `schema`. */
export function evaluatedIndexes(
  v: SchemaValidator,
  array: readonly PyValue[],
  schema: JsonValue,
  seen: Set<JsonObject> = new Set(),
): Set<number> {
  const indexes = new Set<number>();
  if (!isSchemaObject(schema) || seen.has(schema)) return indexes;
  seen.add(schema);
  if (own(schema, "items") !== undefined) {
    for (let i = 0; i < array.length; i++) indexes.add(i);
    return indexes;
  }
  const prefix = own(schema, "prefixItems");
  if (Array.isArray(prefix)) for (let i = 0; i < Math.min(prefix.length, array.length); i++) indexes.add(i);
  for (const keyword of ["contains", "unevaluatedItems"]) {
    const subschema = own(schema, keyword);
    if (subschema === undefined) continue;
    array.forEach((item, i) => {
      if (v.isValid(item, subschema)) indexes.add(i);
    });
  }
  for (const subschema of inPlaceSubschemas(v, array, schema)) {
    for (const i of evaluatedIndexes(v, array, subschema, seen)) indexes.add(i);
  }
  return indexes;
}
