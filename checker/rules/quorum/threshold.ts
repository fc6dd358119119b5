// SPEC-QUORUM-THRESHOLD-INVALID and SPEC-QUORUM-THRESHOLD-UNREACHABLE: a quorum step's `threshold`
// is a count (an integer ≥ 1; an integral float such as 3.0 counts as 3) or a fraction of `runs`
// in (0, 1]; a count above `runs` can never be met.
import { valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import { namedSteps, stepPath } from "../support";
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
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      if (step.kind !== "quorum") continue;
      const entry = step.entry("threshold");
      const threshold = thresholdNumber(step);
      if (entry === undefined || threshold === null) continue;
      const { value, float } = threshold;
      const valid = value > 0 && (Number.isInteger(value) || (float && value <= 1));
      if (valid) continue;
      reporter.report(SPEC_QUORUM_THRESHOLD_INVALID, {
        message: SPEC_QUORUM_THRESHOLD_INVALID.message(step.id, threshold.text),
        path: stepPath(step, "threshold"),
        range: valueRange(model.source, entry),
        suggestion: "Write a count (e.g. threshold: 3) or a fraction of runs (e.g. threshold: 0.6)",
      });
    }
  },
});

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
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      if (step.kind !== "quorum") continue;
      const entry = step.entry("threshold");
      const threshold = thresholdNumber(step);
      const runs = step.integer("runs")?.value;
      if (entry === undefined || threshold === null || runs === undefined) continue;
      // A fraction (a float ≤ 1) is always reachable; an integral count above runs never is.
      const count = threshold.float && threshold.value <= 1 ? null : threshold.value;
      if (count === null || !Number.isInteger(count) || count <= runs) continue;
      reporter.report(SPEC_QUORUM_THRESHOLD_UNREACHABLE, {
        message: SPEC_QUORUM_THRESHOLD_UNREACHABLE.message(step.id, count, runs),
        path: stepPath(step, "threshold"),
        range: valueRange(model.source, entry),
        suggestion: `Write a threshold of at most ${runs}, or raise runs`,
      });
    }
  },
});
