// The one implementation of SPEC-<KIND>-MISSING-KEY: a step of a kind lacks a key it cannot run
// without. Which keys, and where and how each is reported, is the kind's descriptor's
// (checker/kinds/<kind>.ts, `requiredKeys`); this rule reports what the descriptor finds, under
// the descriptor's code, in one wording.
import { valueRange } from "../../anchors";
import type { StepKind } from "../../base/step-kinds";
import type { RequiredKeys } from "../../kinds/types";
import { stepEntity, stepPath } from "../support";
import type { VisitingRule } from "../types";

export function missingKeyRule(kind: StepKind, required: RequiredKeys): VisitingRule {
  const { rule } = required;
  return {
    ...rule,
    visit(on) {
      on.onStep([kind], (step, { model, reporter }) => {
        for (const missing of required.missing(step, model)) {
          const entry = step.entry(missing.key);
          reporter.report(rule, {
            message: `${rule.message(step.id, missing.key)}${missing.detail ?? ""}`,
            path: stepPath(step, missing.path ?? missing.key),
            range:
              missing.range ??
              (entry === undefined ? stepEntity(model, step) : valueRange(model.source, entry)),
            suggestion: missing.suggestion,
          });
        }
      });
    },
  };
}
