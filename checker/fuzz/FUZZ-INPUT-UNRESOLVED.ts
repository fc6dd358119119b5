// FUZZ-INPUT-UNRESOLVED: a step input cannot be resolved on a reachable path.
import { defineRule } from "../rule";

export const FUZZ_INPUT_UNRESOLVED = defineRule({
  code: "FUZZ-INPUT-UNRESOLVED",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "step input cannot be resolved on a reachable path",
  doc:
    "On some run the flow reached this step and could not resolve this input, so the flow cannot go " +
    "on: the step it reads was jumped over by routing (on_fail, next, a gate route), an optional " +
    "flow input was not given, or a key is missing below an untyped value. Read only steps that " +
    "run on every path to this one, or route around this step on those paths.",
  example: {
    bad: '- id: build\n  on_fail: triage      # jumps over test\n- id: test\n- id: triage\n  inputs: {failures: "$.steps.test.output.failures"}',
    good: '- id: triage\n  inputs: {log: "$.steps.build.output.log"}   # build runs on every path here',
  },
  message: (step: string, input: string, error: string) =>
    `input '${input}' of step '${step}' cannot be resolved: ${error}`,
});
