// A diagnostic of a scenario test file (`*.stratum-test.yaml`, docs/guides/testing-a-spec.md).
import { defineRule } from "../rule";

export const TEST_UNKNOWN_STEP = defineRule({
  code: "TEST-UNKNOWN-STEP",
  severity: "error",
  family: "scenario",
  errorType: "ir_validation_error",
  title: "A scenario test names a step the flow does not have, or answers it the wrong way",
  doc:
    "Script entries and `expect.steps` name steps of the test file's flow. A name that is not a " +
    "step of the flow (a typo, a renamed step), a gate answered as a step, or a step that is not a " +
    "gate answered with `gate:` can never match what the interpreter dispatches.",
  example: {
    bad: "script:\n  - {gate: deploy, outcome: approve}   # deploy is not a gate",
    good: "script:\n  - {gate: sign_off, outcome: approve}",
  },
  message: (what: string) => what,
});
