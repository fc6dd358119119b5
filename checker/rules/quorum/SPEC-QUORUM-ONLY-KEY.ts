// SPEC-QUORUM-ONLY-KEY: the keys of a quorum step (runs, agree_on, threshold) on any other step,
// where nothing reads them.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { kindsOtherThan, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const QUORUM_ONLY_KEYS = ["runs", "agree_on", "threshold"] as const;

export const SPEC_QUORUM_ONLY_KEY = defineRule({
  code: "SPEC-QUORUM-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key of quorum steps on another step",
  doc: "runs, agree_on and threshold describe a quorum step (type: quorum, a stratumc extension): how many copies run, what they vote on and how many must agree. On any other step nothing reads them. Remove the key, or make the step a quorum step.",
  example: {
    bad: "- {id: classify, intent: Classify the ticket, runs: 3}",
    good: '- {id: classify, type: quorum, intent: Classify the ticket, runs: 3, agree_on: "result.severity"}',
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a quorum step`,
  visit(on: RuleVisitor): void {
    on.onStep(kindsOtherThan("quorum"), (step, { reporter }) => {
      for (const key of QUORUM_ONLY_KEYS) {
        const entry = step.entry(key);
        if (entry === undefined || !step.valid(key)) continue;
        reporter.report(SPEC_QUORUM_ONLY_KEY, {
          message: SPEC_QUORUM_ONLY_KEY.message(step.id, key),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: `Remove '${key}', or make '${step.id}' a quorum step (type: quorum)`,
        });
      }
    });
  },
});
