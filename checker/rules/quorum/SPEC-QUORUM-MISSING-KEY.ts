// SPEC-QUORUM-MISSING-KEY: the keys a quorum step (stratumc's extension, docs/reference/language.md §6.5)
// cannot run without: `runs` (how many copies vote), `agree_on` (what they vote on) and `intent`
// (what each copy does).
import { valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import { defineRule } from "../../rule";
import { type NamedStep, stepEntity, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const QUORUM_KEYS = ["runs", "agree_on", "intent"] as const;

const EXAMPLE_VALUES: Readonly<Record<(typeof QUORUM_KEYS)[number], string>> = {
  runs: "5",
  agree_on: '"result.severity"',
  intent: '"Classify the ticket\'s severity"',
};

export const SPEC_QUORUM_MISSING_KEY = defineRule({
  code: "SPEC-QUORUM-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A quorum step lacks runs, agree_on or intent",
  doc: "A quorum step (type: quorum, a stratumc extension) runs the same step several times and keeps the result most runs agree on: it needs runs (how many copies run), agree_on (the expression over one run's result the copies vote with) and intent (what each copy is asked to do). Add the missing key; intent and agree_on must not be empty.",
  example: {
    bad: "- {id: classify, type: quorum, intent: Classify the ticket, runs: 5}",
    good: '- {id: classify, type: quorum, intent: Classify the ticket, runs: 5, agree_on: "result.severity"}',
  },
  message: (step: string, key: string) => `Quorum step '${step}' must have '${key}'`,
  visit(on: RuleVisitor): void {
    on.onStep(["quorum"], (step, { model, reporter }) => {
      for (const key of QUORUM_KEYS) {
        const entry = step.entry(key);
        // A present key with a structural error was reported already (SCHEMA-*).
        if (entry !== undefined && (key === "runs" || step.string(key)?.value !== "")) continue;
        reporter.report(SPEC_QUORUM_MISSING_KEY, {
          message: SPEC_QUORUM_MISSING_KEY.message(step.id, key),
          ...where(model, step, key),
        });
      }
    });
  },
});

/** The range is the key's empty value, or the step when the key is absent. */
function where(model: SpecModel, step: NamedStep, key: (typeof QUORUM_KEYS)[number]) {
  const entry = step.entry(key);
  return {
    path: stepPath(step, key),
    range: entry === undefined ? stepEntity(model, step) : valueRange(model.source, entry),
    suggestion: `Add ${key}: ${EXAMPLE_VALUES[key]} to step '${step.id}'`,
  };
}
