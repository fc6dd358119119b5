// FUZZ-WORKER-FAILED: the fuzzer stopped on this spec without a report (it crashed, or it did not
// answer by its time budget), so the other specs of the command still get theirs.
import { defineRule } from "../rule";

export const FUZZ_WORKER_FAILED = defineRule({
  code: "FUZZ-WORKER-FAILED",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "the fuzzer stopped on this spec without a report",
  doc:
    "`stratumc fuzz` and `check --deep` fuzz specs on worker threads (--jobs). The worker fuzzing this " +
    "spec crashed (it ran out of memory, or the fuzzer threw), or, under --time-budget, did not answer " +
    "within two seconds of the spec's share of the budget. The message says which. Nothing of the " +
    "spec's exploration is reported; the other specs are fuzzed as usual. A crash is a bug in " +
    "stratumc: please report it with the spec. A spec that does not answer in time may simply need " +
    "a larger --time-budget, or fewer --runs or --max-steps.",
  example: {
    bad: "$ stratumc fuzz specs/ --time-budget 2s   # FUZZ-WORKER-FAILED: did not answer by its deadline",
    good: "$ stratumc fuzz specs/big.stratum.yaml --time-budget 30s",
  },
  message: (reason: string) => `the fuzzer stopped on this spec without a report: ${reason}`,
});
