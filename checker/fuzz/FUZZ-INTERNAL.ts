// FUZZ-INTERNAL: the interpreter failed (a bug in stratumc).
import { defineRule } from "../rule";

export const FUZZ_INTERNAL = defineRule({
  code: "FUZZ-INTERNAL",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "the interpreter failed (a bug in stratumc)",
  doc:
    "The interpreter answered internal_error while the fuzzer drove this spec: a bug in stratumc, " +
    "not in your spec. Please report it with the counterexample (--save writes it to a file).",
  example: {
    bad: "$ stratumc fuzz plan.stratum.yaml   # FUZZ-INTERNAL on stratum_step_done",
    good: "$ stratumc fuzz plan.stratum.yaml --save bug.json   # attach bug.json to the report",
  },
  message: (call: string) => `the interpreter failed on ${call} (internal_error): please report this bug`,
});
