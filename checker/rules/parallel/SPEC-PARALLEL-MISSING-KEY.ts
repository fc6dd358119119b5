import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { missingKeyWhere, missingOrEmpty } from "./keys";

const PARALLEL_KEYS = ["source", "intent_template"] as const;

export const SPEC_PARALLEL_MISSING_KEY = defineRule({
  code: "SPEC-PARALLEL-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A parallel_dispatch step lacks source or intent_template",
  doc: "A parallel_dispatch step runs one task per item of its source list, each with the instruction its intent_template gives. Without a source there are no tasks, without an intent_template nothing to tell them. Add the missing key with a non-empty value.",
  example: {
    bad: '- {id: run, type: parallel_dispatch, intent_template: "Do {task.description}"}',
    good: '- {id: run, type: parallel_dispatch, source: "$.steps.plan.output.tasks", intent_template: "Do {task.description}", depends_on: [plan]}',
  },
  message: (step: string, key: string) => `parallel_dispatch step '${step}' must have '${key}'`,
  visit(on: RuleVisitor): void {
    on.onStep(["parallel_dispatch"], (step, { model, reporter }) => {
      for (const key of PARALLEL_KEYS) {
        if (!missingOrEmpty(step, key)) continue;
        reporter.report(SPEC_PARALLEL_MISSING_KEY, {
          message: SPEC_PARALLEL_MISSING_KEY.message(step.id, key),
          ...missingKeyWhere(model, step, key),
        });
      }
    });
  },
});
