// YAML-EMPTY: the text is empty or only whitespace (docs/reference/language.md §1.1).
import { defineRule } from "../../rule";

export const YAML_EMPTY = defineRule({
  code: "YAML-EMPTY",
  severity: "error",
  family: "yaml",
  errorType: "ir_parse_error",
  title: "The spec text is empty",
  doc:
    "A spec must contain one YAML document; empty or whitespace-only text is rejected (as the " +
    "reference does). Write at least the version and the sections of the spec.",
  example: { bad: "", good: 'version: "0.2"\nfunctions: {}\nflows: {}' },
  message: () => "YAML syntax error: Empty or blank YAML input",
});
