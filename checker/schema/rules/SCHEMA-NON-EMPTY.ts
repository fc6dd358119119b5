// SCHEMA-NON-EMPTY: an empty `steps` list or an empty string where text is required.
import { defineRule } from "../../rule";

export const SCHEMA_NON_EMPTY = defineRule({
  code: "SCHEMA-NON-EMPTY",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A value must not be empty",
  doc: "A flow needs at least one step, a function's intent and a workflow's description need some text. Fill in the value (or remove the function or flow).",
  example: { bad: "steps: []", good: "steps:\n  - {id: a, intent: Summarise the input}" },
  message: (value: string) => `${value} should be non-empty`,
});
