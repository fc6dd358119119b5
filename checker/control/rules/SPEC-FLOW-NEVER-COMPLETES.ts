// SPEC-FLOW-NEVER-COMPLETES: no run of a flow can complete.
import { defineRule } from "../../rule";

const LOOP_EXAMPLE =
  "- {id: review, intent: review the change}\n- {id: fix, intent: fix what review found, next: review}";

export const SPEC_FLOW_NEVER_COMPLETES = defineRule({
  code: "SPEC-FLOW-NEVER-COMPLETES",
  // A warning, not an error: stratum_plan refuses a spec with an error, and the runtime's
  // behaviour on such flows is defined (they loop until a kill or exhausted retries end them), as
  // in the reference, which accepts them.
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "No run of a flow can complete",
  doc:
    "Whatever the agent's results and the human's gate decisions, no run of the flow reaches its " +
    "end: every run loops until a step exhausts its retries, a gate kills it, or the caller gives up. " +
    "The diagnostic points at the route that closes the loop and lists the loop's steps. A typical " +
    "cause is a fix step that routes back to its review with next, so it runs even when the review " +
    "passed: let the review's success leave the loop (put the fix before the review and send a " +
    "failing review back to it with on_fail, or decide with a gate whose on_approve leaves).",
  example: {
    bad: LOOP_EXAMPLE,
    good: "- {id: fix, intent: fix what the last review found}\n- {id: review, intent: review the change, ensure: [result.ok], on_fail: fix}",
  },
  message: (flow: string, loop: string) => `Flow '${flow}' can never complete: ${loop}`,
  related: (step: string) => `step '${step}' is part of the loop`,
});
