// FUZZ-DEAD-STEP: a step that no run dispatches.
import { defineRule } from "../rule";

export const FUZZ_DEAD_STEP = defineRule({
  code: "FUZZ-DEAD-STEP",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "step that no run dispatches",
  doc:
    "No explored run dispatched this step: its skip_if held every time, or no route led to it. In " +
    "exhaustive mode this is proven over the explored choices; in random mode it was not seen in the " +
    "runs made. Fix the condition or the routes, or remove the step.",
  example: {
    bad: 'skip_if: "len($.input.docs) >= 0"    # always true',
    good: 'skip_if: "len($.input.docs) == 0"',
  },
  message: (step: string, where: string, why: string) =>
    `step '${step}' is never dispatched ${where}: ${why}`,
});
