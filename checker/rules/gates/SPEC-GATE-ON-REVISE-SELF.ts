// SPEC-GATE-ON-REVISE-SELF: revising must re-run the work, not the gate itself.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath, stringValue } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_ON_REVISE_SELF = defineRule({
  code: "SPEC-GATE-ON-REVISE-SELF",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step's on_revise must not target itself",
  doc: "on_revise names the step whose work is sent back for changes; a gate that revises to itself would only ask the same question again. Target the earlier step that produces the work being reviewed.",
  example: {
    bad: "- {id: a, intent: x}\n- {id: r, function: review, on_approve: null, on_kill: null, on_revise: r}",
    good: "- {id: a, intent: x}\n- {id: r, function: review, on_approve: null, on_kill: null, on_revise: a}",
  },
  message: (step: string) => `Gate step '${step}' on_revise may not target itself`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, { model, reporter }) => {
      const target = stringValue(step, "on_revise");
      if (target === null || target.value !== step.id) return;
      reporter.report(SPEC_GATE_ON_REVISE_SELF, {
        message: SPEC_GATE_ON_REVISE_SELF.message(step.id),
        path: stepPath(step, "on_revise"),
        range: valueRange(model.source, target.entry),
      });
    });
  },
});
