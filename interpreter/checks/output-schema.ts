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
  return validatorOf(schema)
    .errors(result)
    .map((message) => PREFIX + message);
}

/**
 * Whether `result` conforms to the schema: checkOutputSchema finds no violation. The same walk,
 * stopped at the first violation, no text built (a reported result usually conforms).
 */
export function conformsToOutputSchema(result: PyValue, schema: JsonObject): boolean {
  return validatorOf(schema).conforms(result);
}

function validatorOf(schema: JsonObject): SchemaValidator {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = new SchemaValidator(schema);
    validators.set(schema, validator);
  }
  return validator;
}
