// SPEC-GATE-SCORE-EXPR: scores rank the iterations of a working step; gates have no iterations.
import { defineRule } from "../../rule";
import { gateScoreExpr } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_SCORE_EXPR = defineRule({
  code: "SPEC-GATE-SCORE-EXPR",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must not have score_expr",
  doc: "score_expr scores each iteration of a working step's iteration loop so that the best result is kept; a gate has no iterations and no result to score. Remove score_expr from the gate step (it is not checked as an expression) and score the step the gate reviews instead.",
  example: {
    bad: '- {id: r, function: review, score_expr: "result.quality", on_approve: null, on_revise: a, on_kill: null}',
    good: "- {id: r, function: review, on_approve: null, on_revise: a, on_kill: null}",
  },
  message: (step: string) => `Gate step '${step}' must not have score_expr`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, { reporter }) => {
      if (!gateScoreExpr(step)) return;
      reporter.report(SPEC_GATE_SCORE_EXPR, {
        message: SPEC_GATE_SCORE_EXPR.message(step.id),
        path: stepPath(step, "score_expr"),
        range: keyOf(step, "score_expr"),
      });
    });
  },
});
