// SPEC-PARALLEL-UNSUPPORTED-KEY (the reference's C2 and C3): decompose and parallel_dispatch steps
// do not run the iteration loop, so score_expr, accumulate and accumulate_key would never run. The
// same holds for stratumc's quorum, race and debate steps.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { typedKindAccumulateFields, typedKindScoreExpr } from "../placement";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PARALLEL_UNSUPPORTED_KEY = defineRule({
  code: "SPEC-PARALLEL-UNSUPPORTED-KEY",
  severity: "error",
  family: "iteration",
  errorType: "ir_semantic_error",
  title: "score_expr, accumulate or accumulate_key on a decompose or parallel_dispatch step",
  doc: "Decompose and parallel_dispatch steps (and stratumc's quorum, race and debate steps) do not run the per-step iteration loop, so there is nothing to score or accumulate across iterations. Remove score_expr, accumulate and accumulate_key, or move them to an inline step with max_iterations.",
  example: {
    bad: "- {id: plan, type: decompose, agent: claude, intent: Plan, output_contract: TaskGraph, accumulate: result.tasks}",
    good: "- {id: plan, type: decompose, agent: claude, intent: Plan, output_contract: TaskGraph}",
  },
  message: (step: string, kind: string) =>
    `Step '${step}' has accumulate/accumulate_key but is a ${kind} step — accumulate is not supported on ${kind} steps`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      const score = step.entry("score_expr");
      if (typedKindScoreExpr(step) && score !== undefined && step.kind !== null) {
        reporter.report(SPEC_PARALLEL_UNSUPPORTED_KEY, {
          message: `Step '${step.id}' has score_expr but is a ${step.kind} step — score_expr is not supported on ${step.kind} steps`,
          path: stepPath(step, "score_expr"),
          range: keyRange(score),
          suggestion: "Remove score_expr from this step",
        });
      }
      const [first] = typedKindAccumulateFields(step);
      const entry = first === undefined ? undefined : step.entry(first);
      if (first === undefined || entry === undefined || step.kind === null) return;
      // One diagnostic per step, at accumulate when present (the reference's path).
      reporter.report(SPEC_PARALLEL_UNSUPPORTED_KEY, {
        message: SPEC_PARALLEL_UNSUPPORTED_KEY.message(step.id, step.kind),
        path: stepPath(step, "accumulate"),
        range: keyRange(entry),
        suggestion: "Remove accumulate and accumulate_key from this step",
      });
    });
  },
});
