// SPEC-PIPELINE-STEP-TEMPLATE: a pipeline's prompts are per stage; a step-level intent_template
// would be ignored, so the reference refuses it (present at all, even empty).
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PIPELINE_STEP_TEMPLATE = defineRule({
  code: "SPEC-PIPELINE-STEP-TEMPLATE",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A step-level intent_template on a pipeline step",
  doc: "Each stage of a pipeline step has its own intent_template; the step has none. The reference refuses a step-level intent_template on a pipeline step, even an empty one. Move the text into the stage that should use it.",
  example: {
    bad: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  intent_template: "Review {item}"\n  stages: [{intent_template: "Review {item}"}]',
    good: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  stages: [{intent_template: "Review {item}"}]',
  },
  message: (step: string) =>
    `pipeline step '${step}' must not have a step-level 'intent_template' — it lives per-stage in 'stages'`,
  visit(on: RuleVisitor): void {
    on.onStep(["pipeline"], (step, { reporter }) => {
      const entry = step.entry("intent_template");
      if (entry === undefined || !step.valid("intent_template")) return;
      reporter.report(SPEC_PIPELINE_STEP_TEMPLATE, {
        message: SPEC_PIPELINE_STEP_TEMPLATE.message(step.id),
        path: stepPath(step, "intent_template"),
        range: keyRange(entry),
        suggestion: "Remove intent_template from the step; each stage has its own",
      });
    });
  },
});
