// SPEC-REASONING-TEMPLATE-STEP-KIND (the reference's STRAT-CERT, spec.py _apply_cert_defaults):
// only inline and decompose steps may carry a reasoning_template.

import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

const KIND_TEXT = { function: "function", flow: "flow" } as const;

export const SPEC_REASONING_TEMPLATE_STEP_KIND = defineRule({
  code: "SPEC-REASONING-TEMPLATE-STEP-KIND",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "reasoning_template on a step that is not inline",
  doc: "A reasoning_template makes the agent of an inline step structure its answer in the template's sections and checks the artifact for them. A function step (gate steps included) takes its instructions from its function and a sub-flow step has no agent of its own, so the reference rejects the template there. Move the template to an inline step, or make the step inline (intent instead of function).",
  example: {
    bad: "steps:\n  - id: review\n    function: review_fn\n    reasoning_template: {require_citations: true}",
    good: 'steps:\n  - id: review\n    intent: "Review the change"\n    reasoning_template: {require_citations: true}',
  },
  message: (step: string, flow: string, kind: "function" | "flow") =>
    `Step '${step}' in flow '${flow}' has 'reasoning_template' which is not valid on ${kind} steps. Use it on inline or decompose steps only.`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      const entry = step.entry("reasoning_template");
      // In 0.1 the key is unknown (SCHEMA-UNKNOWN-KEY); gate steps are function steps.
      if (entry === undefined || model.version === "0.1") return;
      const kind = step.kind === "gate" ? "function" : step.kind;
      if (kind !== "function" && kind !== "flow") return;
      reporter.report(SPEC_REASONING_TEMPLATE_STEP_KIND, {
        message: SPEC_REASONING_TEMPLATE_STEP_KIND.message(step.id, step.flow.name, KIND_TEXT[kind]),
        path: stepPath(step, "reasoning_template"),
        range: keyRange(entry),
        suggestion: `Move reasoning_template to an inline step (one with intent: "<what to do>")`,
      });
    });
  },
});
