// YAML-DUPLICATE-KEY: a mapping repeats a key; the last occurrence wins, as in the reference
// (docs/reference/language.md §1.1; divergence DIV-DUP-KEY-WARNING). Reported at each earlier occurrence.
import { defineRule } from "../../rule";

export const YAML_DUPLICATE_KEY = defineRule({
  code: "YAML-DUPLICATE-KEY",
  severity: "warning",
  family: "yaml",
  errorType: "ir_parse_error",
  title: "A mapping repeats a key",
  doc:
    "When a key appears twice in one mapping, the later value silently replaces the earlier one, " +
    "which is almost always an editing mistake (two `steps:` blocks, a field set twice). Remove " +
    "or rename the earlier occurrence; the related location shows the occurrence that is used.",
  example: { bad: "retries: 2\nretries: 3", good: "retries: 3" },
  message: (key: string) => `Duplicate key '${key}' in mapping; the last occurrence is used`,
  related: () => "this occurrence is used",
});
