// SPEC-NONGATE-GATE-ROUTE: gate routes on a step that is never resolved as a gate.
import { defineRule } from "../../rule";
import { NON_GATE_KINDS } from "../placement";
import { keyOf, stepPath, stringValue } from "../support";
import type { RuleVisitor } from "../types";

export const GATE_ROUTES = ["on_approve", "on_revise", "on_kill"] as const;

export const SPEC_NONGATE_GATE_ROUTE = defineRule({
  code: "SPEC-NONGATE-GATE-ROUTE",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A non-gate step sets a gate route",
  doc: "on_approve, on_revise and on_kill are followed only when a gate step is resolved; on a function, inline or sub-flow step they would silently never apply. Use next or on_fail for working steps, or make the step's function a gate function.",
  example: { bad: "- {id: a, intent: x, on_approve: c}", good: "- {id: a, intent: x, next: c}" },
  message: (step: string, field: string) => `Step '${step}' is not a gate step but has '${field}' set`,
  visit(on: RuleVisitor): void {
    on.onStep(NON_GATE_KINDS, (step, { reporter }) => {
      for (const field of GATE_ROUTES) {
        if (stringValue(step, field) === null) continue;
        reporter.report(SPEC_NONGATE_GATE_ROUTE, {
          message: SPEC_NONGATE_GATE_ROUTE.message(step.id, field),
          path: stepPath(step, field),
          range: keyOf(step, field),
        });
      }
    });
  },
});
