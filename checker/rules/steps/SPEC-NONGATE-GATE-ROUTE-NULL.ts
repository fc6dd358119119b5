// SPEC-NONGATE-GATE-ROUTE-NULL: an explicit null gate route on a non-gate step does nothing.
import { defineRule } from "../../rule";
import { NON_GATE_KINDS } from "../placement";
import { keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { GATE_ROUTES } from "./SPEC-NONGATE-GATE-ROUTE";

export const SPEC_NONGATE_GATE_ROUTE_NULL = defineRule({
  code: "SPEC-NONGATE-GATE-ROUTE-NULL",
  severity: "warning",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A null gate route on a non-gate step has no effect",
  doc: "on_approve, on_revise and on_kill apply only to gate steps. An explicit null on a function, inline or sub-flow step is accepted, as the reference does, but it means nothing; remove it.",
  example: { bad: "- {id: a, intent: x, on_kill: null}", good: "- {id: a, intent: x}" },
  message: (step: string, field: string) =>
    `Step '${step}' is not a gate step; '${field}: null' has no effect`,
  visit(on: RuleVisitor): void {
    on.onStep(NON_GATE_KINDS, (step, { reporter }) => {
      for (const field of GATE_ROUTES) {
        const v = step.nullableString(field);
        if (v === null || v.value !== null) continue;
        reporter.report(SPEC_NONGATE_GATE_ROUTE_NULL, {
          message: SPEC_NONGATE_GATE_ROUTE_NULL.message(step.id, field),
          path: stepPath(step, field),
          range: keyOf(step, field),
        });
      }
    });
  },
});
