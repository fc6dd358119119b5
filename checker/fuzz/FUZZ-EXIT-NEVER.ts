// FUZZ-EXIT-NEVER: an exit_criterion that never holds.
import { defineRule } from "../rule";

export const FUZZ_EXIT_NEVER = defineRule({
  code: "FUZZ-EXIT-NEVER",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "exit_criterion that never holds",
  doc:
    "No iteration report the fuzzer made satisfied this exit_criterion, so the loop always runs to " +
    "max_iterations (or stagnates). Check the comparison directions and constants.",
  example: {
    bad: 'max_iterations: 3\nexit_criterion: "dry_streak >= 4"',
    good: 'max_iterations: 6\nexit_criterion: "dry_streak >= 2"',
  },
  message: (step: string, tried: number, searched?: string) =>
    `exit_criterion of step '${step}' held for none of ${tried} iteration reports${searched === undefined ? "" : ` (${searched})`}`,
});
