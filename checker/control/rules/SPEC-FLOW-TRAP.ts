// SPEC-FLOW-TRAP: some runs of a flow enter a loop they can never leave towards completion.
import { defineRule } from "../../rule";

export const SPEC_FLOW_TRAP = defineRule({
  code: "SPEC-FLOW-TRAP",
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "Some runs of a flow enter a loop they can never leave towards completion",
  doc:
    "Some runs of the flow complete, but from some reachable point no continuation does: a loop " +
    "whose only exits are kills and exhausted retries (or a sub-flow step whose flow never ends). " +
    "A run that enters it never completes. The diagnostic points at the route that closes the loop.",
  example: {
    bad: "- {id: check, intent: check, ensure: [result.ok], on_fail: fix}\n- {id: done, intent: report, next: z}\n- {id: fix, intent: fix, next: again}\n- {id: again, intent: recheck, next: fix}\n- {id: z, intent: end}",
    good: "- {id: check, intent: check, ensure: [result.ok], on_fail: fix}\n- {id: done, intent: report, next: z}\n- {id: fix, intent: fix}\n- {id: again, intent: recheck, ensure: [result.ok], on_fail: fix}\n- {id: z, intent: end}",
  },
  message: (flow: string, loop: string) =>
    `Flow '${flow}' can get stuck: ${loop}; a run that gets there never completes`,
  related: (step: string) => `step '${step}' is part of the loop`,
});
