// SUPPRESS-MALFORMED: a malformed suppression comment.
import { defineRule } from "../rule";

export const SUPPRESS_MALFORMED = defineRule({
  code: "SUPPRESS-MALFORMED",
  severity: "error",
  family: "suppression",
  errorType: "ir_semantic_error",
  title: "Malformed suppression comment",
  doc:
    "A suppression comment must name one or more known rule codes in brackets and give a reason " +
    "after the colon, as in # stratum-ignore[CODE]: reason. A malformed suppression suppresses nothing, " +
    "so the diagnostics it was meant to silence are still reported. Fix the codes (stratumc explain " +
    "--list lists them) and say why the diagnostic is acceptable; YAML syntax diagnostics cannot be suppressed.",
  example: {
    bad: "depends_on: [old_step] # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]",
    good: "depends_on: [old_step] # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: removed in the next release",
  },
  message: (detail: string) => `Malformed suppression comment: ${detail}`,
});
