// The diagnostics of a scenario test file (`*.stratum-test.yaml`, docs/guides/testing-a-spec.md):
// its shape, the spec it names, the flow's steps it answers and the results it reports. The
// checker reports them in `check` and in the editor; `stratumc test` refuses to run a file that has
// any of them.
import { defineRule } from "../rule";

export const TEST_SCHEMA = defineRule({
  code: "TEST-SCHEMA",
  severity: "error",
  family: "scenario",
  errorType: "ir_validation_error",
  title: "A scenario test file has an unknown key or a value of the wrong shape",
  doc:
    "A test file is a mapping with `spec`, `flow`, `files` and `tests`; each test has `input`, `files`, " +
    "`script` and `expect`, and each script entry is one of the documented shapes (`step` with `result` or `fail`, " +
    "`gate` with `outcome`, `skip` with `reason`, `iteration` with `report` or `abort`, `parallel` " +
    "with `tasks`). A key the format does not know, a missing required key or a value of the wrong " +
    "type is reported where it is written, and the file is not run.",
  example: {
    bad: "tests:\n  happy:\n    script:\n      - {step: build, reslt: {artifact: a.tgz}}",
    good: "tests:\n  happy:\n    script:\n      - {step: build, result: {artifact: a.tgz}}",
  },
  message: (what: string) => what,
});

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

export const SCENARIO_RULES = [TEST_SCHEMA, TEST_SPEC, TEST_UNKNOWN_STEP, TEST_RESULT_CONTRACT] as const;
