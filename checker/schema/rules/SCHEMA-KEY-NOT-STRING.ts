// SCHEMA-KEY-NOT-STRING: YAML 1.1 loads `on:`, `yes:` or `1:` as non-string keys.
import { defineRule } from "../../rule";

export const SCHEMA_KEY_NOT_STRING = defineRule({
  code: "SCHEMA-KEY-NOT-STRING",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A mapping key is not a string",
  doc: "Spec files are read with YAML 1.1 typing, so keys such as on, yes, no, 1 or ~ load as booleans, numbers or null rather than strings; such keys do not survive a conversion to JSON and are almost always mistakes. Quote the key.",
  example: { bad: "inputs:\n  on: $.input.x", good: 'inputs:\n  "on": $.input.x' },
  suggestion: "Quote the key",
  /** `key` is the Python repr of the loaded key. */
  message: (key: string) => `${key} is not of type 'string'`,
});
