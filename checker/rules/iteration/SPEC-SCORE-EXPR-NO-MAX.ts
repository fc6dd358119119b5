// SPEC-SCORE-EXPR-NO-MAX: score_expr scores the iterations that max_iterations enables.
import { defineRule } from "../../rule";
import { scoreExprNoMax } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_SCORE_EXPR_NO_MAX = defineRule({
  code: "SPEC-SCORE-EXPR-NO-MAX",
  severity: "error",
  family: "iteration",
  errorType: "ir_semantic_error",
  title: "score_expr without max_iterations",
  doc: "score_expr scores every iteration of a step's iteration loop and keeps the best result, and that loop exists only when max_iterations is set. Add max_iterations (an integer of at least 1), or remove score_expr.",
  example: {
    bad: '- {id: a, intent: x, score_expr: "result.coverage"}',
    good: '- {id: a, intent: x, max_iterations: 5, score_expr: "result.coverage"}',
  },
  message: (step: string) => `Step '${step}' has score_expr but no max_iterations`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      if (!scoreExprNoMax(step)) return;
      reporter.report(SPEC_SCORE_EXPR_NO_MAX, {
        message: SPEC_SCORE_EXPR_NO_MAX.message(step.id),
        path: stepPath(step, "score_expr"),
        range: keyOf(step, "score_expr"),
      });
    });
  },
});
