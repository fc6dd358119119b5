// SPEC-GATE-ACCUMULATE: accumulators belong to the iteration loop, which gates do not have.
import { defineRule } from "../../rule";
import { gateAccumulateFields } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_ACCUMULATE = defineRule({
  code: "SPEC-GATE-ACCUMULATE",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must not have accumulate or accumulate_key",
  doc: "accumulate and accumulate_key collect results across the iterations of a working step; a gate has no iterations and no result. Remove both keys from the gate step (they are not checked as expressions).",
  example: {
    bad: '- {id: r, function: review, accumulate: "result.items", on_approve: null, on_revise: a, on_kill: null}',
    good: "- {id: r, function: review, on_approve: null, on_revise: a, on_kill: null}",
  },
  message: (step: string) => `Gate step '${step}' must not have accumulate/accumulate_key`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, { reporter }) => {
      // One diagnostic per step: at `accumulate`, or at `accumulate_key` when that is all there is.
      const field = gateAccumulateFields(step)[0];
      if (field === undefined) return;
      reporter.report(SPEC_GATE_ACCUMULATE, {
        message: SPEC_GATE_ACCUMULATE.message(step.id),
        path: stepPath(step, field),
        range: keyOf(step, field),
      });
    });
  },
});
