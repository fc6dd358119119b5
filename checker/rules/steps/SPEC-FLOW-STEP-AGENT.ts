// SPEC-FLOW-STEP-AGENT: a sub-flow step dispatches nothing itself, so it has no agent.
import { defineRule } from "../../rule";
import { has, keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { flowName } from "./flow-name";

export const SPEC_FLOW_STEP_AGENT = defineRule({
  code: "SPEC-FLOW-STEP-AGENT",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A sub-flow step must not set agent",
  doc: "A sub-flow step runs another flow whose own steps are dispatched to their agents; the calling step has no agent of its own. Remove agent, or set it on the steps of the child flow.",
  example: {
    bad: "- {id: triage, flow: triage, agent: claude}",
    good: "- {id: triage, flow: triage}",
  },
  message: (step: string, flow: string) =>
    `Step '${step}' uses flow '${flow}' — agent must not be set (sub-flow steps define their own)`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      const flow = flowName(step);
      if (flow === null || !has(step, "agent")) return;
      reporter.report(SPEC_FLOW_STEP_AGENT, {
        message: SPEC_FLOW_STEP_AGENT.message(step.id, flow),
        path: stepPath(step, "agent"),
        range: keyOf(step, "agent"),
      });
    });
  },
});
