// SPEC-RACE-MISSING-KEY: what a race step (stratumc's extension, docs/design/concurrency-constructs.md §3)
// cannot run without: `candidates` (who competes) and an instruction for every candidate — the
// step's `intent`, unless every listed candidate has its own.
import { valueRange } from "../../anchors";
import { memberDecls } from "../../model/members";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import { type NamedStep, stepEntity, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_RACE_MISSING_KEY = defineRule({
  code: "SPEC-RACE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A race step lacks candidates or an intent",
  doc: "A race step (type: race, a stratumc extension) runs several candidates of the same task and keeps the first result that passes the step's checks: it needs candidates (a count, or a list of {id, agent, intent}) and an instruction for each candidate, which is the step's intent unless the candidate has its own. Add the missing key; intent must not be empty.",
  example: {
    bad: "- {id: fix, type: race, candidates: 3}",
    good: '- {id: fix, type: race, candidates: 3, intent: "Make the failing test pass"}',
  },
  message: (step: string, key: string) => `Race step '${step}' must have '${key}'`,
  visit(on: RuleVisitor): void {
    on.onStep(["race"], (step, { model, reporter }) => {
      if (step.entry("candidates") === undefined) {
        report(model, reporter, step, "candidates", "candidates: 3");
      }
      if (needsStepIntent(step) && !hasText(step.string("intent")?.value)) {
        report(model, reporter, step, "intent", '"<what each candidate does>"');
      }
    });
  },
});

/** A count gives members without an intent of their own; so does a listed member without one. */
function needsStepIntent(step: NamedStep): boolean {
  if (step.integer("candidates") !== null) return true;
  return memberDecls(step, "candidates").some((m) => !hasText(m.intent));
}

function hasText(text: string | undefined | null): boolean {
  return typeof text === "string" && text !== "";
}

function report(model: SpecModel, reporter: Reporter, step: NamedStep, key: string, example: string): void {
  const entry = step.entry(key);
  reporter.report(SPEC_RACE_MISSING_KEY, {
    message: SPEC_RACE_MISSING_KEY.message(step.id, key),
    path: stepPath(step, key),
    range: entry === undefined ? stepEntity(model, step) : valueRange(model.source, entry),
    suggestion:
      key === "candidates"
        ? `Add ${example} to step '${step.id}'`
        : `Add intent: ${example} to step '${step.id}', or give every candidate its own intent`,
  });
}
