// Shared shape of the gate rules that forbid one key on a gate step (`K:<field>` anchor).
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import type { RuleInfo } from "../../rule";
import { has, keyOf, type NamedStep, namedSteps, stepPath } from "../support";

/** Every gate step with a valid id. */
export function* gateSteps(model: SpecModel): Generator<NamedStep> {
  for (const step of namedSteps(model)) if (step.kind === "gate") yield step;
}

/** Reports `rule` at `K:<field>` of every gate step that has a valid `field`. */
export function reportGateField(
  model: SpecModel,
  reporter: Reporter,
  rule: RuleInfo,
  field: string,
  message: (step: string) => string,
): void {
  for (const step of gateSteps(model)) {
    if (!has(step, field)) continue;
    reporter.report(rule, {
      message: message(step.id),
      path: stepPath(step, field),
      range: keyOf(step, field),
    });
  }
}
