// SPEC-PROPERTY-NOT-BOOL: a property's expression is a condition, so its type is a boolean.
import { defineRule } from "../../rule";

export const SPEC_PROPERTY_NOT_BOOL = defineRule({
  code: "SPEC-PROPERTY-NOT-BOOL",
  severity: "error",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title: "A property's expression is not a boolean",
  doc: "The expressions of a property (always, never, eventually, leads_to's from and to) are conditions on the state of a run: their type must be bool (None is accepted too, and counts as false, so an optional boolean output field can be read directly). An int, a string or a list would be read by truthiness, which hides mistakes such as `$.steps.fix.attempts` without its comparison. Compare the value with what must hold.",
  example: {
    bad: 'never: "$.steps.fix.attempts"',
    good: 'never: "$.steps.fix.attempts > 3"',
  },
  message: (property: string, type: string) =>
    `Property '${property}': the expression has type ${type}, not bool`,
});
