// SPEC-RACE-ONLY-KEY: `candidates`, the key of a race step, on any other step, where nothing reads it.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { kindsOtherThan, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const RACE_ONLY_KEYS = ["candidates"] as const;

export const SPEC_RACE_ONLY_KEY = defineRule({
  code: "SPEC-RACE-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key of race steps on another step",
  doc: "candidates describes a race step (type: race, a stratumc extension): the members that compete for the step's result. On any other step nothing reads it. Remove the key, or make the step a race step.",
  example: {
    bad: "- {id: fix, intent: Fix the bug, candidates: 3}",
    good: "- {id: fix, type: race, intent: Fix the bug, candidates: 3}",
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a race step`,
  visit(on: RuleVisitor): void {
    on.onStep(kindsOtherThan("race"), (step, { reporter }) => {
      for (const key of RACE_ONLY_KEYS) {
        const entry = step.entry(key);
        if (entry === undefined || !step.valid(key)) continue;
        reporter.report(SPEC_RACE_ONLY_KEY, {
          message: SPEC_RACE_ONLY_KEY.message(step.id, key),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: `Remove '${key}', or make '${step.id}' a race step (type: race)`,
        });
      }
    });
  },
});
