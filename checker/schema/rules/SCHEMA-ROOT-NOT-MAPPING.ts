// SCHEMA-ROOT-NOT-MAPPING: a spec is a mapping; a list or scalar document cannot be interpreted.
import { defineRule } from "../../rule";

export const SCHEMA_ROOT_NOT_MAPPING = defineRule({
  code: "SCHEMA-ROOT-NOT-MAPPING",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "The document is not a mapping",
  doc: "A spec is a YAML mapping whose keys are version, contracts, functions, flows and (0.2) workflow; a document that is a list or a scalar cannot be interpreted, so nothing else is checked. Rewrite the document as a mapping that starts with a version key.",
  example: { bad: '- version: "0.2"', good: 'version: "0.2"' },
  suggestion: "A spec is a YAML mapping that starts with a version key",
  /** `document` is the Python repr of the loaded document. */
  message: (document: string) => `${document} is not of type 'object'`,
});
