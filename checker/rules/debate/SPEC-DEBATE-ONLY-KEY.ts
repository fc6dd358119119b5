// SPEC-DEBATE-ONLY-KEY: the keys of a debate step (debaters, rounds, argument_contract, converge,
// synthesis) on any other step, where nothing reads them.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { kindsOtherThan, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const DEBATE_ONLY_KEYS = ["debaters", "rounds", "argument_contract", "converge", "synthesis"] as const;

export const SPEC_DEBATE_ONLY_KEY = defineRule({
  code: "SPEC-DEBATE-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key of debate steps on another step",
  doc: "debaters, rounds, argument_contract, converge and synthesis describe a debate step (type: debate, a stratumc extension): who argues, for how many rounds, what an argument looks like, when the debate may stop early and who decides. On any other step nothing reads them. Remove the key, or make the step a debate step.",
  example: {
    bad: "- {id: decide, intent: Decide, rounds: 3}",
    good: '- {id: decide, type: debate, intent: Argue, debaters: [{id: pro}, {id: con}], rounds: 3, synthesis: {intent: "Decide"}}',
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a debate step`,
  visit(on: RuleVisitor): void {
    on.onStep(kindsOtherThan("debate"), (step, { reporter }) => {
      for (const key of DEBATE_ONLY_KEYS) {
        const entry = step.entry(key);
        if (entry === undefined || !step.valid(key)) continue;
        reporter.report(SPEC_DEBATE_ONLY_KEY, {
          message: SPEC_DEBATE_ONLY_KEY.message(step.id, key),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: `Remove '${key}', or make '${step.id}' a debate step (type: debate)`,
        });
      }
    });
  },
});
