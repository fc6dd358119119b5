// SPEC-FLOW-STEP-FIELD: retries, model, budget and guardrails are settings of the child flow's own steps.
import { defineRule } from "../../rule";
import { has, keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { flowName } from "./flow-name";

const FIELDS = ["retries", "model", "budget", "guardrails"] as const;

export const SPEC_FLOW_STEP_FIELD = defineRule({
  code: "SPEC-FLOW-STEP-FIELD",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A sub-flow step sets retries, model, budget or guardrails",
  doc: "A sub-flow step runs exactly once and delegates all work to the child flow, so retries, model, budget and guardrails have nothing to apply to. Set them on the child flow's steps or functions (or the flow's budget) instead.",
  example: {
    bad: "- {id: research, flow: research, retries: 3}",
    good: "- {id: research, flow: research}",
  },
  message: (step: string, flow: string, field: string) =>
    `Step '${step}' uses flow '${flow}' — '${field}' must not be set on flow steps`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      const flow = flowName(step);
      if (flow === null) return;
      for (const field of FIELDS) {
        if (!has(step, field)) continue;
        reporter.report(SPEC_FLOW_STEP_FIELD, {
          message: SPEC_FLOW_STEP_FIELD.message(step.id, flow, field),
          path: stepPath(step, field),
          range: keyOf(step, field),
        });
      }
    });
  },
});
