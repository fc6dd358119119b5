// SCHEMA-MINIMUM: a number below its minimum (retries, timeouts, iteration limits, budgets).
import { defineRule } from "../../rule";

export const SCHEMA_MINIMUM = defineRule({
  code: "SCHEMA-MINIMUM",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A number is below its minimum",
  doc: "Counts and limits (retries, timeout, max_rounds, max_iterations, budget ms) must be at least 1, and budget usd must not be negative. Use a value within the range.",
  example: { bad: "retries: 0", good: "retries: 1" },
  message: (value: string, minimum: number) => `${value} is less than the minimum of ${minimum}`,
});
