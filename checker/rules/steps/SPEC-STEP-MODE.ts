// SPEC-STEP-MODE: a step must say what it is — a function, inline, sub-flow or judge step.
import { defineRule } from "../../rule";
import { stepEntity, stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { selectionOf } from "./selectors";

export const SPEC_STEP_MODE = defineRule({
  code: "SPEC-STEP-MODE",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A step must have exactly one of function, intent, flow or judge",
  doc: "The kind of a step is selected by exactly one key: function (a function or gate step), intent (an inline step), flow (a sub-flow step) or judge (a judge step, 0.2). A step with none of them, or with several, cannot be run. Keep the one you mean; an empty string counts as absent.",
  example: {
    bad: '- {id: summary, function: summarize, intent: "Summarize the ticket", inputs: {}}',
    good: "- {id: summary, function: summarize, inputs: {}}",
  },
  message: (step: string) => `Step '${step}' must have exactly one of function, intent, flow, or judge`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      const selection = selectionOf(model, step);
      if (selection.kind === "one" || selection.kind === "unknown") return;
      // A 0.1 step without `function` already has SCHEMA-REQUIRED.
      if (selection.kind === "none" && model.version === "0.1" && step.entry("function") === undefined)
        return;
      reporter.report(SPEC_STEP_MODE, {
        message: SPEC_STEP_MODE.message(step.id),
        path: stepPath(step),
        range: stepEntity(model, step),
      });
    });
  },
});
