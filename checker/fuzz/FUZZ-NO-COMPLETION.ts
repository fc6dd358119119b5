// FUZZ-NO-COMPLETION: a flow that no run completes.
import { defineRule } from "../rule";

export const FUZZ_NO_COMPLETION = defineRule({
  code: "FUZZ-NO-COMPLETION",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "flow that no run completes",
  doc:
    "The exhaustive exploration covered every path of this flow and none of them completed: each " +
    "run either ended in a failure the spec declares (retries exhausted, a kill) or went round this " +
    "route again and again. A flow that cannot complete even when every step passes and every gate " +
    "is approved is broken on every run. Typically a step after a check runs whatever the check said " +
    "and routes back to it with next: make the route conditional (skip_if on the fixing step, or " +
    "on_fail on the check instead of next on the fix), or end the flow after the check passes.",
  example: {
    bad: '- id: review\n  ensure: ["result.approved"]\n- id: fix\n  next: review',
    good: '- id: review\n  ensure: ["result.approved"]\n  on_fail: fix\n- id: fix\n  next: review\n  skip_if: "$.steps.review.output.approved"',
  },
  message: (flow: string, route: string, loop: string) =>
    `no run of flow '${flow}' completes: ${route} sends it round ${loop} for ever, and every other run ends in a failure or a kill`,
});
