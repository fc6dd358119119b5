// SCHEMA-UNKNOWN-KEY: a key that the mapping's schema does not have (typos, newer-version keys).
import { strRepr } from "../../../stdlib/values/repr";
import type { Version } from "../../base/version";
import { defineRule } from "../../rule";

export const SCHEMA_UNKNOWN_KEY = defineRule({
  code: "SCHEMA-UNKNOWN-KEY",
  severity: "error",
  family: "unknown-key",
  errorType: "ir_validation_error",
  title: "A key is not allowed here",
  doc: "Each kind of mapping accepts a fixed set of keys, so a misspelt key would otherwise be silently ignored. Rename the key (the suggestion names the closest allowed key), remove it, or, for a key that only a later version knows (0.2, or 0.3 for the decompose and parallel_dispatch keys), declare that version.",
  example: { bad: "depend_on: [build]", good: "depends_on: [build]" },
  fix: "Renames the key to the allowed key it is closest to, when there is exactly one clear candidate.",
  message: (key: string) => `Additional properties are not allowed (${strRepr(key)} was unexpected)`,
  laterVersionSuggestion: (key: string, version: Version) => `${strRepr(key)} requires version "${version}"`,
  removeSuggestion: "Remove unrecognised fields",
});
