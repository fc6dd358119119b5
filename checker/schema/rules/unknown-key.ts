// SCHEMA-UNKNOWN-KEY: a key that the mapping's schema does not have (typos, newer-version keys).
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const SCHEMA_UNKNOWN_KEY = defineRule({
  code: "SCHEMA-UNKNOWN-KEY",
  severity: "error",
  family: "unknown-key",
  errorType: "ir_validation_error",
  title: "A key is not allowed here",
  doc: 'Each kind of mapping accepts a fixed set of keys, so a misspelt key would otherwise be silently ignored. Rename the key (the suggestion names the closest allowed key), remove it, or, for a key that only version 0.2 knows, declare version: "0.2".',
  example: { bad: "depend_on: [build]", good: "depends_on: [build]" },
  fix: "Renames the key to the allowed key it is closest to, when there is exactly one clear candidate.",
  message: (key: string) => `Additional properties are not allowed (${strRepr(key)} was unexpected)`,
  laterVersionSuggestion: (key: string) => `${strRepr(key)} requires version "0.2"`,
  removeSuggestion: "Remove unrecognised fields",
});
