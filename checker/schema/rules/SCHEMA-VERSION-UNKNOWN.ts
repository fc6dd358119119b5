// SCHEMA-VERSION-UNKNOWN: the version selects the schema, so nothing can be checked without it.
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const SCHEMA_VERSION_UNKNOWN = defineRule({
  code: "SCHEMA-VERSION-UNKNOWN",
  severity: "error",
  family: "version",
  errorType: "ir_validation_error",
  title: "The spec has no known version",
  doc: 'The version key selects the spec format. With a missing or unknown version the rest of the document is still checked for structural problems (missing keys, values of the wrong kind) against the 0.3 format, but no semantic rule runs until the version is known. Start the file with version: "0.3" (or "0.2", "0.1"), quoted.',
  example: { bad: 'version: "1.0"', good: 'version: "0.3"' },
  /** The reference's suggestion: its newest version. */
  suggestion: 'Use version: "0.3"',
  missingSuggestion: 'Add version: "0.3" as the first line of the file',
  /** `version` is Python's `str()` of the loaded value ("" when the key is missing). */
  message: (version: string) => `Unknown IR version: ${strRepr(version)}`,
});
