// SPEC-DEBATE-MISSING-KEY: what a debate step (stratumc's extension, docs/reference/language.md §6.7) cannot
// run without: `debaters` (who argues), `rounds` (how long), `synthesis` (who decides, with an
// intent) and an instruction for every debater — its own intent, or the step's.
import { valueRange } from "../../anchors";
import { memberDecls } from "../../model/members";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import { type NamedStep, stepEntity, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const REQUIRED = ["debaters", "rounds", "synthesis"] as const;

const EXAMPLES: Readonly<Record<(typeof REQUIRED)[number], string>> = {
  debaters: "debaters: [{id: pro, intent: ...}, {id: con, intent: ...}]",
  rounds: "rounds: 3",
  synthesis: 'synthesis: {intent: "Weigh the arguments and decide"}',
};

export const SPEC_DEBATE_MISSING_KEY = defineRule({
  code: "SPEC-DEBATE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A debate step lacks debaters, rounds, synthesis or an intent",
  doc: "A debate step (type: debate, a stratumc extension) lets its debaters argue for some rounds, then a synthesiser decides: it needs debaters (a list of {id, agent, intent}), rounds and synthesis (with a non-empty intent). Every debater needs an instruction, its own intent or else the step's. Add the missing key.",
  example: {
    bad: "- {id: design, type: debate, debaters: [{id: pro}, {id: con}], rounds: 2}",
    good: '- {id: design, type: debate, intent: Argue your side, debaters: [{id: pro}, {id: con}], rounds: 2, synthesis: {intent: "Decide"}}',
  },
  message: (step: string, key: string) => `Debate step '${step}' must have '${key}'`,
  visit(on: RuleVisitor): void {
    on.onStep(["debate"], (step, { model, reporter }) => {
      for (const key of REQUIRED) {
        // A present key with a structural error was reported already (SCHEMA-*).
        if (step.entry(key) !== undefined) continue;
        reporter.report(SPEC_DEBATE_MISSING_KEY, {
          message: SPEC_DEBATE_MISSING_KEY.message(step.id, key),
          path: stepPath(step, key),
          range: stepEntity(model, step),
          suggestion: `Add ${EXAMPLES[key]} to step '${step.id}'`,
        });
      }
      reportEmptySynthesisIntent(model, reporter, step);
      reportDebatersWithoutIntent(reporter, step);
    });
  },
});

/** `synthesis: {intent: ""}`: the schema requires the key, this rule a text in it. */
function reportEmptySynthesisIntent(model: SpecModel, reporter: Reporter, step: NamedStep): void {
  const entry = step.map("synthesis")?.value.get("intent");
  if (entry === undefined || entry.value.kind !== "scalar" || entry.value.value !== "") return;
  reporter.report(SPEC_DEBATE_MISSING_KEY, {
    message: SPEC_DEBATE_MISSING_KEY.message(step.id, "synthesis.intent"),
    path: stepPath(step, "synthesis.intent"),
    range: valueRange(model.source, entry),
    suggestion: `Say what the synthesiser of step '${step.id}' decides`,
  });
}

/** Each debater with no intent of its own when the step has none either, at the debater's mapping. */
function reportDebatersWithoutIntent(reporter: Reporter, step: NamedStep): void {
  const stepIntent = step.string("intent")?.value;
  if (typeof stepIntent === "string" && stepIntent !== "") return;
  for (const member of memberDecls(step, "debaters")) {
    if (member.intent !== null && member.intent !== "") continue;
    reporter.report(SPEC_DEBATE_MISSING_KEY, {
      message: `${SPEC_DEBATE_MISSING_KEY.message(step.id, "intent")}: debater '${member.id}' has none`,
      path: `${stepPath(step, "debaters")}.${member.index}.intent`,
      range: member.node.range,
      suggestion: `Give debater '${member.id}' an intent, or give step '${step.id}' one`,
    });
  }
}
