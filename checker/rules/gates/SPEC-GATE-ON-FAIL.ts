// SPEC-GATE-ON-FAIL: a gate cannot fail; rejection is expressed by on_revise or on_kill.
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { reportGateField } from "./gate-field";

export const SPEC_GATE_ON_FAIL = defineRule({
  code: "SPEC-GATE-ON-FAIL",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must not have on_fail",
  doc: "on_fail routes a working step that exhausted its attempts; a gate has no attempts and cannot fail. Use on_revise (send work back) or on_kill (stop) on a gate instead.",
  example: {
    bad: "- {id: r, function: review, on_fail: a, on_approve: null, on_revise: a, on_kill: null}",
    good: "- {id: r, function: review, on_approve: null, on_revise: a, on_kill: null}",
  },
  message: (step: string) => `Gate step '${step}' must not have on_fail (use on_revise for gates)`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, context) =>
      reportGateField(step, context, SPEC_GATE_ON_FAIL, "on_fail", SPEC_GATE_ON_FAIL.message),
    );
  },
});
