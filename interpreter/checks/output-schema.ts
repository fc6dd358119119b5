// `output_schema` validation (docs/reference/runtime.md §4.3): JSON Schema draft 2020-12 with the message texts of
// Python's jsonschema, in the order the schema's keywords are written.
import type { JsonObject } from "../../checker/base/json";
import type { PyValue } from "../../stdlib/values/value";
import { SchemaValidator } from "./schema/validator";

/** What every output_schema violation text starts with. */
export const OUTPUT_SCHEMA_PREFIX = "output_schema violation: ";
const PREFIX = OUTPUT_SCHEMA_PREFIX;

/** One validator per schema object of the IR (it caches its resolved references). */
const validators = new WeakMap<JsonObject, SchemaValidator>();

/** Violations `output_schema violation: …` of `result` against a (statically valid) schema. */
export function checkOutputSchema(result: PyValue, schema: JsonObject): string[] {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = new SchemaValidator(schema);
    validators.set(schema, validator);
  }
  return validator.errors(result).map((message) => PREFIX + message);
}
