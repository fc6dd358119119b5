// FUZZ-FLOW-OUTPUT: a finished flow's output does not fit the flow's output contract.
import { defineRule } from "../rule";

export const FUZZ_FLOW_OUTPUT = defineRule({
  code: "FUZZ-FLOW-OUTPUT",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "finished flow's output does not fit the flow's output contract",
  doc:
    "A flow's output is the stored output of the last step (in execution order) whose output is not " +
    "null. On some run it did not conform to the contract named by the flow's `output`: the last " +
    "step produces another shape, or was skipped so an earlier step's output became the flow's. " +
    "Make the final step produce the flow's contract on every path.",
  example: {
    bad: "output: LocalizedNotes\nsteps:\n  - id: draft        # ReleaseNotes\n  - id: translate    # skip_if: \"$.input.locale == 'en'\"",
    good: "steps:\n  - id: draft\n  - id: translate\n  - id: finalize     # output_contract: LocalizedNotes, never skipped",
  },
  message: (flow: string, contract: string, problem: string) =>
    `flow '${flow}' finished with an output that does not fit its output contract '${contract}': ${problem}`,
});
