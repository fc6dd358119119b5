// SPEC-ROUTE-UNKNOWN-STEP: every route names a step of the same flow.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { isNonGate, isTypedKind } from "../placement";
import { stepPath, stringValue, suggestName } from "../support";
import type { RuleVisitor } from "../types";

const GATE_ROUTES = ["on_approve", "on_revise", "on_kill"] as const;
const WORK_ROUTES = ["on_fail", "next"] as const;

export const SPEC_ROUTE_UNKNOWN_STEP = defineRule({
  code: "SPEC-ROUTE-UNKNOWN-STEP",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A route names an unknown step",
  doc: "on_approve, on_revise, on_kill, on_fail and next name the step the flow continues with, which must be a step id of the same flow. Correct the id (a close match is suggested), or use null to end the flow where the route allows it.",
  example: {
    bad: "- {id: outline, intent: x, next: write_artcle}\n- {id: write_article, intent: y}",
    good: "- {id: outline, intent: x, next: write_article}\n- {id: write_article, intent: y}",
  },
  fix: "Replaces the target with the one step id of the same flow close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (step: string, field: string, target: string) =>
    `Step '${step}' ${field} references unknown step '${target}'`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      // A route that is itself misplaced (gate routes on a non-gate step, on_fail/next on a gate)
      // is reported by the gate rules and not resolved.
      // Gate routes on a decompose or parallel_dispatch step are ignored (SPEC-STEP-KIND-IGNORED-KEY).
      const gateRoutes = isNonGate(step) || isTypedKind(step) ? [] : GATE_ROUTES;
      const fields = [...gateRoutes, ...(step.kind === "gate" ? [] : WORK_ROUTES)];
      for (const field of fields) {
        const target = stringValue(step, field);
        if (target === null || step.flow.stepById.has(target.value)) continue;
        reporter.report(SPEC_ROUTE_UNKNOWN_STEP, {
          message: SPEC_ROUTE_UNKNOWN_STEP.message(step.id, field, target.value),
          path: stepPath(step, field),
          range: valueRange(model.source, target.entry),
          ...suggestName(target.entry, target.value, step.flow.stepById.keys()),
        });
      }
    });
  },
});
