// FUZZ-ACCUMULATE-FAILS: accumulate raises or returns a non-list.
import { defineRule } from "../rule";

export const FUZZ_ACCUMULATE_FAILS = defineRule({
  code: "FUZZ-ACCUMULATE-FAILS",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "accumulate raises or returns a non-list",
  doc:
    "On some run this accumulate expression raised, or gave something other than a list, for an " +
    "iteration result shaped like the step's contract: nothing was accumulated from that report. " +
    "Make it always produce a list (`result.get('items') or []`).",
  example: {
    bad: 'extra: {type: array, required: false}\n…\naccumulate: "[x for x in result.extra]"',
    good: "accumulate: \"[x for x in (result.get('extra') or [])]\"",
  },
  message: (step: string, error: string) => `accumulate of step '${step}' failed: ${error}`,
});
