// FUZZ-INPUT-READS-SKIPPED: a step input reads the output of a skipped step.
import { defineRule } from "../rule";

export const FUZZ_INPUT_READS_SKIPPED = defineRule({
  code: "FUZZ-INPUT-READS-SKIPPED",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "step input reads the output of a skipped step",
  doc:
    "On some run the step this input reads was skipped by its skip_if, so the agent was given null " +
    "instead of that step's output. Give the reading step a matching skip_if, or make the producer " +
    "run whenever the consumer does.",
  example: {
    bad: 'lint: skip_if: "$.input.quick"\nfix: inputs: {report: "$.steps.lint.output"}',
    good: 'fix: skip_if: "$.input.quick"   # the same condition as lint',
  },
  message: (step: string, input: string, skipped: string) =>
    `input '${input}' of step '${step}' reads the output of '${skipped}', which its skip_if skipped: the agent gets null`,
});
