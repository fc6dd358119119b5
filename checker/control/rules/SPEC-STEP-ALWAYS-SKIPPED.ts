// SPEC-STEP-ALWAYS-SKIPPED: a step's skip_if is always true.
import { defineRule } from "../../rule";

export const SPEC_STEP_ALWAYS_SKIPPED = defineRule({
  code: "SPEC-STEP-ALWAYS-SKIPPED",
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "A step's skip_if is always true",
  doc:
    "skip_if is evaluated at every dispatch of the step; an expression that is always true (a " +
    "literal such as True, a non-empty string or list, not False) skips the step on every run, so " +
    "it never runs (a gate is approved without a human). Remove the step, or make the condition " +
    "read the data it depends on.",
  example: {
    bad: "- {id: a, intent: x, skip_if: 'True'}",
    good: "- {id: a, intent: x, skip_if: '$.input.quick'}",
  },
  message: (step: string) => `Step '${step}' never runs: its skip_if is always true`,
  gate: (step: string) =>
    `Gate '${step}' never waits for a human: its skip_if is always true, so it is always approved`,
});
