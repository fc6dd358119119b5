// SPEC-RACE-ONLY-KEY: `candidates`, the key of a race step, on any other step, where nothing reads it.
import { keyRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import { namedSteps, stepPath } from "../support";

export const RACE_ONLY_KEYS = ["candidates"] as const;

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
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      // An unknown kind (SPEC-STEP-MODE, an invalid type, …) is not known to be another kind.
      if (step.kind === null || step.kind === "race") continue;
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
    }
  },
});
