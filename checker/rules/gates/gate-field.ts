// Shared shape of the gate rules that forbid one key on a gate step (`K:<field>` anchor).
import type { RuleInfo } from "../../rule";
import { has, keyOf, type NamedStep, stepPath } from "../support";
import type { RuleContext } from "../types";

/** Reports `rule` at `K:<field>` when the gate step has a valid `field`. */
export function reportGateField(
  step: NamedStep,
  { reporter }: RuleContext,
  rule: RuleInfo,
  field: string,
  message: (step: string) => string,
): void {
  if (!has(step, field)) return;
  reporter.report(rule, {
    message: message(step.id),
    path: stepPath(step, field),
    range: keyOf(step, field),
  });
}
