// A diagnostic of a scenario test file (`*.stratum-test.yaml`, docs/guides/testing-a-spec.md).
import { defineRule } from "../rule";

export const TEST_RESULT_CONTRACT = defineRule({
  code: "TEST-RESULT-CONTRACT",
  severity: "error",
  family: "scenario",
  errorType: "ir_semantic_error",
  title: "A scripted result does not conform to the step's output contract",
  doc:
    "A `result` in a script is checked against the output contract of the step it answers, field by " +
    "field, as the interpreter checks a reported result: a missing required field, a value of the " +
    "wrong type or one outside `values` is reported at the field. A result meant to be refused is " +
    "written with `fail:` beside it.",
  example: {
    bad: "- {step: build, result: {artifact: 42}}   # artifact: {type: string}",
    good: '- {step: build, result: {artifact: "a.tgz"}}',
  },
  message: (what: string) => what,
});
