// SCHEMA-MAXIMUM: a number above its maximum (a judge predicate's applied_gate).
import { defineRule } from "../../rule";

export const SCHEMA_MAXIMUM = defineRule({
  code: "SCHEMA-MAXIMUM",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A number is above its maximum",
  doc: "A judge predicate's applied_gate is a confidence from 1 to 10. Use a value within the range.",
  example: { bad: "applied_gate: 11", good: "applied_gate: 10" },
  message: (value: string, maximum: number) => `${value} is greater than the maximum of ${maximum}`,
});
