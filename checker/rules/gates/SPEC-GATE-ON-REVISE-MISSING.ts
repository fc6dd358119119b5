// SPEC-GATE-ON-REVISE-MISSING: a gate must be able to send work back.
import { defineRule } from "../../rule";
import { keyOf, stepEntity, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_ON_REVISE_MISSING = defineRule({
  code: "SPEC-GATE-ON-REVISE-MISSING",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must have on_revise set to a step id",
  doc: "Revising is the point of a gate: on_revise names the earlier step that is run again when the reviewer asks for changes. Set it to the id of the step that produces the work under review; it cannot be null.",
  example: {
    bad: "- {id: a, intent: x}\n- {id: r, function: review, on_approve: null, on_kill: null}",
    good: "- {id: a, intent: x}\n- {id: r, function: review, on_approve: null, on_kill: null, on_revise: a}",
  },
  message: (step: string) => `Gate step '${step}' must have on_revise set to a step id`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, { model, reporter }) => {
      const entry = step.entry("on_revise");
      let explicitNull = false;
      if (entry !== undefined) {
        // A present value is a problem only when it is a valid null (other values are SCHEMA-TYPE).
        const v = step.nullableString("on_revise");
        if (v === null || v.value !== null) return;
        explicitNull = true;
      }
      reporter.report(SPEC_GATE_ON_REVISE_MISSING, {
        message: SPEC_GATE_ON_REVISE_MISSING.message(step.id),
        path: stepPath(step, "on_revise"),
        range: explicitNull ? keyOf(step, "on_revise") : stepEntity(model, step),
      });
    });
  },
});
