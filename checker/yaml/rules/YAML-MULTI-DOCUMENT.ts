// YAML-MULTI-DOCUMENT: the text holds more than one YAML document (docs/reference/language.md §1.1).
import { defineRule } from "../../rule";

export const YAML_MULTI_DOCUMENT = defineRule({
  code: "YAML-MULTI-DOCUMENT",
  severity: "error",
  family: "yaml",
  errorType: "ir_parse_error",
  title: "The text contains more than one YAML document",
  doc:
    "A spec file is exactly one YAML document. A line `---` after content starts a second " +
    "document; remove it (and everything after it that belongs elsewhere), or split the text " +
    "into separate spec files.",
  example: { bad: 'version: "0.2"\n---\nflows: {}', good: 'version: "0.2"\nflows: {}' },
  message: () => "YAML syntax error: expected a single document in the stream but found another document",
});
