// FUZZ-EXIT-CRITERION-RAISES: exit_criterion raises on a conforming iteration result.
import { defineRule } from "../rule";

export const FUZZ_EXIT_CRITERION_RAISES = defineRule({
  code: "FUZZ-EXIT-CRITERION-RAISES",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "exit_criterion raises on a conforming iteration result",
  doc:
    "On some run this exit_criterion raised for an iteration result shaped like the step's contract; " +
    "a raising criterion counts as not met, so the loop cannot end on success for such results. " +
    "Guard the read or the division.",
  example: {
    bad: 'exit_criterion: "result.passed / result.total >= 0.9"   # total may be 0',
    good: 'exit_criterion: "result.total > 0 and result.passed / result.total >= 0.9"',
  },
  message: (step: string, error: string) => `exit_criterion of step '${step}' raised: ${error}`,
});
