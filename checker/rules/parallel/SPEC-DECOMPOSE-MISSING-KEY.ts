import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { missingKeyWhere, missingOrEmpty } from "./keys";

const DECOMPOSE_KEYS = ["agent", "intent", "output_contract"] as const;

export const SPEC_DECOMPOSE_MISSING_KEY = defineRule({
  code: "SPEC-DECOMPOSE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A decompose step lacks agent, intent or output_contract",
  doc: "A decompose step (type: decompose) asks an agent to break the work into a task graph: it needs the agent that does it, the intent that says what to decompose, and the output_contract of the graph (usually a TaskGraph contract with a tasks list). Add the missing key with a non-empty value.",
  example: {
    bad: "- {id: plan, type: decompose, agent: claude, intent: Plan the work}",
    good: "- {id: plan, type: decompose, agent: claude, intent: Plan the work, output_contract: TaskGraph}",
  },
  message: (step: string, key: string) => `Decompose step '${step}' must have '${key}'`,
  visit(on: RuleVisitor): void {
    on.onStep(["decompose"], (step, { model, reporter }) => {
      for (const key of DECOMPOSE_KEYS) {
        if (!missingOrEmpty(step, key)) continue;
        reporter.report(SPEC_DECOMPOSE_MISSING_KEY, {
          message: SPEC_DECOMPOSE_MISSING_KEY.message(step.id, key),
          ...missingKeyWhere(model, step, key),
        });
      }
    });
  },
});
