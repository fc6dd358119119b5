// YAML-TAG: an explicit tag other than !!str, !!int, !!float, !!bool, !!null, !!seq, !!map
// (docs/reference/language.md §1.1; divergence DIV-YAML-MESSAGE).
import { defineRule } from "../../rule";

export const YAML_TAG = defineRule({
  code: "YAML-TAG",
  severity: "error",
  family: "yaml",
  errorType: "ir_parse_error",
  title: "The spec uses an unsupported YAML tag",
  doc:
    "Only the standard tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are accepted; " +
    "other tags (!!binary, !!set, !!timestamp, application tags such as !include) have no meaning " +
    "in a spec. Remove the tag, or quote the value if the tag was meant as text.",
  example: { bad: "intent: !include prompt.md", good: 'intent: "Summarise the document"' },
  message: (tag: string) => `YAML syntax error: unsupported tag '${tag}'`,
});
