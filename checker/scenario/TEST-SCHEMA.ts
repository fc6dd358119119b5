// A diagnostic of a scenario test file (`*.stratum-test.yaml`, docs/guides/testing-a-spec.md).
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
