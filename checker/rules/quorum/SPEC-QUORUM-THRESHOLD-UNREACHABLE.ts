// SPEC-QUORUM-THRESHOLD-UNREACHABLE: a quorum step's threshold count above `runs` can never be met.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { thresholdNumber } from "./threshold-value";

export const SPEC_QUORUM_THRESHOLD_UNREACHABLE = defineRule({
  code: "SPEC-QUORUM-THRESHOLD-UNREACHABLE",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A quorum threshold larger than runs",
  doc: "A quorum step's largest group of agreeing runs can have at most runs members, so a threshold count above runs can never be met and the step would always fail. Lower threshold, raise runs, or write the threshold as a fraction of runs.",
  example: {
    bad: '- {id: classify, type: quorum, intent: Classify, runs: 3, agree_on: "result.severity", threshold: 4}',
    good: '- {id: classify, type: quorum, intent: Classify, runs: 5, agree_on: "result.severity", threshold: 4}',
  },
  message: (step: string, threshold: number, runs: number) =>
    `Quorum step '${step}' has threshold ${threshold} but only ${runs} runs: the quorum can never be reached`,
  visit(on: RuleVisitor): void {
    on.onStep(["quorum"], (step, { model, reporter }) => {
      const entry = step.entry("threshold");
      const threshold = thresholdNumber(step);
      const runs = step.integer("runs")?.value;
      if (entry === undefined || threshold === null || runs === undefined) return;
      // A fraction (a float ≤ 1) is always reachable; an integral count above runs never is.
      const count = threshold.float && threshold.value <= 1 ? null : threshold.value;
      if (count === null || !Number.isInteger(count) || count <= runs) return;
      reporter.report(SPEC_QUORUM_THRESHOLD_UNREACHABLE, {
        message: SPEC_QUORUM_THRESHOLD_UNREACHABLE.message(step.id, count, runs),
        path: stepPath(step, "threshold"),
        range: valueRange(model.source, entry),
        suggestion: `Write a threshold of at most ${runs}, or raise runs`,
      });
    });
  },
});
