// A diagnostic of a scenario test file (`*.stratum-test.yaml`, docs/guides/testing-a-spec.md).
import { defineRule } from "../rule";

export const TEST_SPEC = defineRule({
  code: "TEST-SPEC",
  severity: "error",
  family: "scenario",
  errorType: "ir_validation_error",
  title: "The spec a scenario test file names cannot be read, has errors, or lacks the flow",
  doc:
    "`spec:` is a path relative to the test file and `flow:` a flow of that spec. The spec must " +
    "exist, be readable and check without errors (run `stratumc check` on it), and the flow must be " +
    "one of its flows; otherwise none of the file's tests can run.",
  example: {
    bad: "spec: relase.stratum.yaml\nflow: release",
    good: "spec: release.stratum.yaml\nflow: release",
  },
  message: (what: string) => what,
});
