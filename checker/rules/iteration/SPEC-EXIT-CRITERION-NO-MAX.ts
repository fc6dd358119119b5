// SPEC-EXIT-CRITERION-NO-MAX: exit_criterion only ends an iteration loop that max_iterations enables.
import { defineRule } from "../../rule";
import { exitCriterionNoMax } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_EXIT_CRITERION_NO_MAX = defineRule({
  code: "SPEC-EXIT-CRITERION-NO-MAX",
  severity: "error",
  family: "iteration",
  errorType: "ir_semantic_error",
  title: "exit_criterion without max_iterations",
  doc: "The iteration loop of a step is enabled by max_iterations, which also bounds it; exit_criterion can only end a loop that exists. Add max_iterations (an integer of at least 1), or remove exit_criterion.",
  example: {
    bad: '- {id: a, intent: x, exit_criterion: "result.done"}',
    good: '- {id: a, intent: x, max_iterations: 5, exit_criterion: "result.done"}',
  },
  message: (step: string) => `Step '${step}' has exit_criterion but no max_iterations`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      if (!exitCriterionNoMax(step)) return;
      reporter.report(SPEC_EXIT_CRITERION_NO_MAX, {
        message: SPEC_EXIT_CRITERION_NO_MAX.message(step.id),
        path: stepPath(step, "exit_criterion"),
        range: keyOf(step, "exit_criterion"),
      });
    });
  },
});
