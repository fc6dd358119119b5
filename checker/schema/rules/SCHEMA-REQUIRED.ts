// SCHEMA-REQUIRED: a mapping lacks a key its schema requires.
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const SCHEMA_REQUIRED = defineRule({
  code: "SCHEMA-REQUIRED",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A required key is missing",
  doc: "Every kind of mapping in a spec has keys that must be present: version at the top, mode on a function (plus output on infer and compute functions in 0.2, and intent, input and output in 0.1), input and steps on a flow, id on a step, type on a contract field. Add the missing key; one diagnostic is reported for each.",
  example: { bad: "steps:\n  - intent: Summarise", good: "steps:\n  - id: summarise\n    intent: Summarise" },
  message: (key: string) => `${strRepr(key)} is a required property`,
  /** The reference's wording for a 0.2 infer/compute function without `output`. */
  functionOutputMessage: (fn: string) => `Function '${fn}' output contract '' not defined`,
});
