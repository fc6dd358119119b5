// SPEC-FN-STEP-FIELD: a function or gate step takes these settings from its function.
import { defineRule } from "../../rule";
import { stepEnsureMisplaced } from "../placement";
import { has, keyOf, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const FIELDS = ["ensure", "retries", "output_contract", "model", "budget", "guardrails"] as const;

export const SPEC_FN_STEP_FIELD = defineRule({
  code: "SPEC-FN-STEP-FIELD",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A function step sets a field that belongs on its function",
  doc: "A function step runs its function as declared: ensure, retries, the output contract, model, budget and guardrails come from the function and cannot be overridden per step. Move the field to the function (output_contract becomes the function's output), or make the step an inline step.",
  example: {
    bad: "- {id: summary, function: summarize, inputs: {}, retries: 5}",
    good: "- {id: summary, function: summarize, inputs: {}}",
  },
  message: (step: string, fn: string, field: string) =>
    `Step '${step}' uses function '${fn}' — '${field}' must be on the function, not the step`,
  visit(on: RuleVisitor): void {
    on.onStep(["function", "gate"], (step, { reporter }) => {
      // A function or gate step always has its function; the fallbacks only satisfy the types.
      const fn = step.fn?.name ?? step.string("function")?.value ?? "";
      for (const field of FIELDS) {
        // `ensure` goes through the shared predicate: the expression phase skips exactly these.
        const present = field === "ensure" ? stepEnsureMisplaced(step) : has(step, field);
        if (!present) continue;
        reporter.report(SPEC_FN_STEP_FIELD, {
          message: SPEC_FN_STEP_FIELD.message(step.id, fn, field),
          path: stepPath(step, field),
          range: keyOf(step, field),
        });
      }
    });
  },
});
