// `output_schema` validation (runtime.md §4.3): JSON Schema draft 2020-12 with the message texts of
// Python's jsonschema, in the order the schema's keywords are written.
import type { JsonObject } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";

/** Violations `output_schema violation: …` of `result` against a (statically valid) schema. */
export function checkOutputSchema(result: PyValue, schema: JsonObject): string[] {
  void result;
  void schema;
  throw new Error("checkOutputSchema: not implemented yet");
}
