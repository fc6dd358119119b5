// SPEC-GATE-POLICY-FALLBACK-NO-POLICY: a fallback only makes sense for a declared policy.
import { defineRule } from "../../rule";
import { has, keyOf, lacks, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_POLICY_FALLBACK_NO_POLICY = defineRule({
  code: "SPEC-GATE-POLICY-FALLBACK-NO-POLICY",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "policy_fallback without policy",
  doc: "policy_fallback names the policy to use when the gate's policy cannot be applied; without a policy there is nothing to fall back from. Add policy (gate, flag or skip), or remove policy_fallback.",
  example: {
    bad: "- {id: r, function: review, policy_fallback: gate, on_approve: null, on_revise: a, on_kill: null}",
    good: "- {id: r, function: review, policy: flag, policy_fallback: gate, on_approve: null, on_revise: a, on_kill: null}",
  },
  message: (step: string) => `Gate step '${step}' has policy_fallback but no policy`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, { reporter }) => {
      if (!has(step, "policy_fallback") || !lacks(step, "policy")) return;
      reporter.report(SPEC_GATE_POLICY_FALLBACK_NO_POLICY, {
        message: SPEC_GATE_POLICY_FALLBACK_NO_POLICY.message(step.id),
        path: stepPath(step, "policy_fallback"),
        range: keyOf(step, "policy_fallback"),
      });
    });
  },
});
