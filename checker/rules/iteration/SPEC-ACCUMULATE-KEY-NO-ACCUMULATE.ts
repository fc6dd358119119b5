// SPEC-ACCUMULATE-KEY-NO-ACCUMULATE: accumulate_key deduplicates what accumulate collects.
import { defineRule } from "../../rule";
import { accumulateKeyNoAccumulate } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_ACCUMULATE_KEY_NO_ACCUMULATE = defineRule({
  code: "SPEC-ACCUMULATE-KEY-NO-ACCUMULATE",
  severity: "error",
  family: "iteration",
  errorType: "ir_semantic_error",
  title: "accumulate_key without accumulate",
  doc: "accumulate_key computes the deduplication key of each element that accumulate extracts; without accumulate there are no elements. Add accumulate, or remove accumulate_key.",
  example: {
    bad: '- {id: a, intent: x, max_iterations: 5, accumulate_key: "item.id"}',
    good: '- {id: a, intent: x, max_iterations: 5, accumulate: "result.items", accumulate_key: "item.id"}',
  },
  message: (step: string) => `Step '${step}' has accumulate_key but no accumulate`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      if (!accumulateKeyNoAccumulate(step)) return;
      reporter.report(SPEC_ACCUMULATE_KEY_NO_ACCUMULATE, {
        message: SPEC_ACCUMULATE_KEY_NO_ACCUMULATE.message(step.id),
        path: stepPath(step, "accumulate_key"),
        range: keyOf(step, "accumulate_key"),
      });
    });
  },
});
