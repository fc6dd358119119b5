// FUZZ-SKIP-IF-RAISES: skip_if raises on a reachable state.
import { defineRule } from "../rule";

export const FUZZ_SKIP_IF_RAISES = defineRule({
  code: "FUZZ-SKIP-IF-RAISES",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "skip_if raises on a reachable state",
  doc:
    "On some run this skip_if raised, so the step was not skipped (the run goes on with a warning). " +
    "It usually reads the output of a step that was itself skipped (its output is null) or an " +
    "input that was not given. Guard the read (`($.steps.a.output.n or 0) > 3`).",
  example: {
    bad: 'skip_if: "$.steps.lint.output.errors > 0"   # lint may be skipped',
    good: 'skip_if: "($.steps.lint.output.errors or 0) > 0"',
  },
  message: (step: string, error: string) => `skip_if of step '${step}' raised: ${error}`,
});
