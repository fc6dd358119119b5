// SPEC-QUORUM-THRESHOLD-INVALID: a quorum step's `threshold` is a count (an integer ≥ 1; an
// integral float such as 3.0 counts as 3) or a fraction of `runs` in (0, 1].
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { thresholdNumber } from "./threshold-value";

export const SPEC_QUORUM_THRESHOLD_INVALID = defineRule({
  code: "SPEC-QUORUM-THRESHOLD-INVALID",
  severity: "error",
  family: "schema",
  errorType: "ir_semantic_error",
  title: "A quorum threshold that is neither a count nor a fraction in (0, 1]",
  doc: "threshold says how many runs of a quorum step must agree: an integer count (at least 1), or a fraction of runs between 0 (excluded) and 1 (included) that is rounded up. 0 would accept anything and a non-integral number above 1 means neither. Write a count such as 3 or a fraction such as 0.6.",
  example: {
    bad: '- {id: classify, type: quorum, intent: Classify, runs: 5, agree_on: "result.severity", threshold: 2.5}',
    good: '- {id: classify, type: quorum, intent: Classify, runs: 5, agree_on: "result.severity", threshold: 3}',
  },
  message: (step: string, written: string) =>
    `Quorum step '${step}' has threshold ${written}: expected an integer count ≥ 1 or a fraction in (0, 1]`,
  visit(on: RuleVisitor): void {
    on.onStep(["quorum"], (step, { model, reporter }) => {
      const entry = step.entry("threshold");
      const threshold = thresholdNumber(step);
      if (entry === undefined || threshold === null) return;
      const { value, float } = threshold;
      const valid = value > 0 && (Number.isInteger(value) || (float && value <= 1));
      if (valid) return;
      reporter.report(SPEC_QUORUM_THRESHOLD_INVALID, {
        message: SPEC_QUORUM_THRESHOLD_INVALID.message(step.id, threshold.text),
        path: stepPath(step, "threshold"),
        range: valueRange(model.source, entry),
        suggestion: "Write a count (e.g. threshold: 3) or a fraction of runs (e.g. threshold: 0.6)",
      });
    });
  },
});
