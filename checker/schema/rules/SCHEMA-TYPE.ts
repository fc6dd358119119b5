// SCHEMA-TYPE: a value of the wrong kind (string, integer, mapping, sequence, …).
import { defineRule } from "../../rule";

export const SCHEMA_TYPE = defineRule({
  code: "SCHEMA-TYPE",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A value has the wrong type",
  doc: "Every key expects one kind of value. Remember that specs use YAML 1.1 typing: unquoted yes, no, on and off are booleans, 0.2 is a number and ~ is null, so quote such strings. The version must be a quoted string.",
  example: {
    bad: "version: 0.2\nflows:\n  f:\n    input: {}\n    steps: {id: a}",
    good: 'version: "0.2"\nflows:\n  f:\n    input: {}\n    steps: [{id: a, intent: x}]',
  },
  fix: 'Quotes an unquoted version number (version: 0.2 becomes version: "0.2"); offered only for the version key, when it is a plain scalar without a tag that loads as the number 0.1, 0.2 or 0.3.',
  /** `types` are JSON Schema type names: `string`, `integer`, `object`, `array`, `null`, … */
  message: (value: string, types: readonly string[]) =>
    `${value} is not of type ${types.map((t) => `'${t}'`).join(", ")}`,
  /** A value that fits none of a `oneOf`'s alternatives (0.3 `require`: a word or an integer). */
  noAlternativeMessage: (value: string) => `${value} is not valid under any of the given schemas`,
  versionSuggestion: (version: string) => `Quote the version: version: "${version}"`,
});
