// YAML-SYNTAX: the text is not well-formed YAML, or a scalar cannot be loaded (an explicit tag that
// does not fit, an invalid date, `=`), or the nesting is too deep (docs/reference/language.md §1.1, docs/reference/language.md §9.5.1).
import { defineRule } from "../../rule";

export const YAML_SYNTAX = defineRule({
  code: "YAML-SYNTAX",
  severity: "error",
  family: "yaml",
  errorType: "ir_parse_error",
  title: "The spec is not valid YAML",
  doc:
    "The YAML parser could not read the text at the reported position; the message names the " +
    "problem. Common causes are wrong indentation, a missing colon or closing bracket, and an " +
    "unquoted value that contains `: ` or starts with a special character. Quote such values.",
  example: { bad: "steps: [a, b", good: "steps: [a, b]" },
  message: (description: string) => `YAML syntax error: ${description}`,
});
