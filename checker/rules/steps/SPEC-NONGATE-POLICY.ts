// SPEC-NONGATE-POLICY: policies decide how a gate is resolved; other steps have no resolution.
import { defineRule } from "../../rule";
import { NON_GATE_KINDS } from "../placement";
import { has, keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const FIELDS = ["policy", "policy_fallback"] as const;

export const SPEC_NONGATE_POLICY = defineRule({
  code: "SPEC-NONGATE-POLICY",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "policy or policy_fallback on a non-gate step",
  doc: "policy (gate, flag or skip) decides whether a gate waits for a person, is auto-approved with a flag, or is skipped; policy_fallback belongs with it. Function, inline and sub-flow steps are never resolved that way. Remove the key, or make the step's function a gate function.",
  example: { bad: "- {id: a, intent: x, policy: flag}", good: "- {id: a, intent: x}" },
  message: (step: string, field: string) => `Step '${step}' has ${field} but is not a gate step`,
  visit(on: RuleVisitor): void {
    on.onStep(NON_GATE_KINDS, (step, { reporter }) => {
      for (const field of FIELDS) {
        if (!has(step, field)) continue;
        reporter.report(SPEC_NONGATE_POLICY, {
          message: SPEC_NONGATE_POLICY.message(step.id, field),
          path: stepPath(step, field),
          range: keyOf(step, field),
        });
      }
    });
  },
});
