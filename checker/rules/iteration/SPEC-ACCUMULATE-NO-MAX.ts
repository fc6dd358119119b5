// SPEC-ACCUMULATE-NO-MAX: accumulate collects across iterations, which need max_iterations.
import { defineRule } from "../../rule";
import { accumulateNoMax } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_ACCUMULATE_NO_MAX = defineRule({
  code: "SPEC-ACCUMULATE-NO-MAX",
  severity: "error",
  family: "iteration",
  errorType: "ir_semantic_error",
  title: "accumulate without max_iterations",
  doc: "accumulate gathers elements from the result of every iteration of a step's iteration loop, and that loop exists only when max_iterations is set. Add max_iterations (an integer of at least 1), or remove accumulate.",
  example: {
    bad: '- {id: a, intent: x, accumulate: "result.items"}',
    good: '- {id: a, intent: x, max_iterations: 5, accumulate: "result.items"}',
  },
  message: (step: string) => `Step '${step}' has accumulate but no max_iterations`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      if (!accumulateNoMax(step)) return;
      reporter.report(SPEC_ACCUMULATE_NO_MAX, {
        message: SPEC_ACCUMULATE_NO_MAX.message(step.id),
        path: stepPath(step, "accumulate"),
        range: keyOf(step, "accumulate"),
      });
    });
  },
});
