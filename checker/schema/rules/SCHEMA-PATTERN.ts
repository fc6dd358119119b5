// SCHEMA-PATTERN: a string that does not match the required form (the workflow name).
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const SCHEMA_PATTERN = defineRule({
  code: "SCHEMA-PATTERN",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A string does not match its pattern",
  doc: "A workflow name is used as an identifier by tools that list workflows, so it must start with a lowercase letter and contain only lowercase letters, digits and '-'. Rename it (and the entry flow, if it has the same name).",
  example: { bad: "workflow:\n  name: My_WF", good: "workflow:\n  name: my-wf" },
  message: (value: string, pattern: string) => `${value} does not match ${strRepr(pattern)}`,
});
