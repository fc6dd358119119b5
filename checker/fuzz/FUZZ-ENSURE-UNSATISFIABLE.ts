// FUZZ-ENSURE-UNSATISFIABLE: an ensure that no conforming result satisfies.
import { defineRule } from "../rule";

export const FUZZ_ENSURE_UNSATISFIABLE = defineRule({
  code: "FUZZ-ENSURE-UNSATISFIABLE",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "ensure that no conforming result satisfies",
  doc:
    "No result that the fuzzer generated from the step's contract, including results built from the " +
    "expressions' own constants, passed this ensure (or the list as a whole): the step can only fail. " +
    "Check the comparison directions and the constants.",
  example: {
    bad: 'ensure: ["result.pass_rate >= 95 and result.pass_rate <= 1.0"]',
    good: 'ensure: ["result.pass_rate >= 0.95 and result.pass_rate <= 1.0"]',
  },
  message: (step: string, what: string, tried: number, searched?: string) =>
    `${what} of step '${step}' held for none of ${tried} conforming results${searched === undefined ? "" : ` (${searched})`}`,
});
