// SPEC-GATE-NEXT: where a gate continues is decided by its resolution routes.
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { reportGateField } from "./gate-field";

export const SPEC_GATE_NEXT = defineRule({
  code: "SPEC-GATE-NEXT",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must not have next",
  doc: "next routes a working step after success; a gate continues according to how it is resolved. Put the target in on_approve instead.",
  example: {
    bad: "- {id: r, function: review, next: b, on_approve: null, on_revise: a, on_kill: null}",
    good: "- {id: r, function: review, on_approve: b, on_revise: a, on_kill: null}",
  },
  message: (step: string) => `Gate step '${step}' must not have next (use on_approve for gates)`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, context) =>
      reportGateField(step, context, SPEC_GATE_NEXT, "next", SPEC_GATE_NEXT.message),
    );
  },
});
