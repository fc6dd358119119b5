// SPEC-GATE-EXIT-CRITERION: accepted (as the reference does) but it can never take effect.
import { defineRule } from "../../rule";
import { gateExitCriterion } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_EXIT_CRITERION = defineRule({
  code: "SPEC-GATE-EXIT-CRITERION",
  severity: "warning",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "exit_criterion on a gate step has no effect",
  doc: "exit_criterion ends the iteration loop of a working step; no iteration loop can run on a gate, so the expression is never evaluated (and is not checked). Remove it; a gate repeats work through on_revise.",
  example: {
    bad: '- {id: r, function: review, exit_criterion: "result.ok", on_approve: null, on_revise: a, on_kill: null}',
    good: "- {id: r, function: review, on_approve: null, on_revise: a, on_kill: null}",
  },
  message: (step: string) =>
    `Gate step '${step}' must not have exit_criterion (gates have their own revise cycle); it has no effect`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, { reporter }) => {
      if (!gateExitCriterion(step)) return;
      reporter.report(SPEC_GATE_EXIT_CRITERION, {
        message: SPEC_GATE_EXIT_CRITERION.message(step.id),
        path: stepPath(step, "exit_criterion"),
        range: keyOf(step, "exit_criterion"),
      });
    });
  },
});
