// The one implementation of SPEC-<KIND>-ONLY-KEY: a key only one kind reads, on a step of another
// kind, where nothing reads it. Which keys count as given there is the kind's descriptor's
// (checker/kinds/<kind>.ts, `exclusiveKeys`); a step of unknown kind (SPEC-STEP-MODE, an invalid
// type, …) is not known to be another kind, so it is not visited.
import { keyRange } from "../../anchors";
import { STEP_KINDS, type StepKind } from "../../base/step-kinds";
import type { ExclusiveKeys } from "../../kinds/types";
import { stepPath } from "../support";
import type { VisitingRule } from "../types";

export function onlyKeyRule(kind: StepKind, exclusive: ExclusiveKeys): VisitingRule {
  const { rule } = exclusive;
  return {
    ...rule,
    visit(on) {
      on.onStep(
        STEP_KINDS.filter((k) => k !== kind),
        (step, { reporter }) => {
          for (const found of exclusive.found(step)) {
            const entry = step.entry(found.key);
            if (entry === undefined) continue;
            reporter.report(rule, {
              message: found.message ?? rule.message(step.id, found.key),
              path: stepPath(step, found.key),
              range: keyRange(entry),
              suggestion: `Remove '${found.key}', or make '${step.id}' a ${kind} step (type: ${kind})`,
            });
          }
        },
      );
    },
  };
}
