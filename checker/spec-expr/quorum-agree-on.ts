// The static hashability check of a quorum step's agree_on (SPEC-QUORUM-AGREE-ON-UNHASHABLE):
// an error when every possible value of the key is unhashable (a list, a dict, a record).
import { isUnhashable } from "../../stdlib/types/kinds";
import { typeToString } from "../../stdlib/types/print";
import { members } from "../../stdlib/types/union";
import type { StepDecl } from "../model/types";
import type { Reporter } from "../report";
import { SPEC_QUORUM_AGREE_ON_UNHASHABLE } from "../rules/quorum/SPEC-QUORUM-AGREE-ON-UNHASHABLE";
import type { CheckedExpression } from "./types";

/** True when it reported (the expression is then not valid). */
export function reportUnhashableAgreeOn(
  reporter: Reporter,
  step: StepDecl & { readonly id: string },
  checked: CheckedExpression,
): boolean {
  if (!checked.ok || checked.ast === null) return false;
  const all = members(checked.type);
  if (checked.type.k === "any" || all.length === 0 || !all.every(isUnhashable)) return false;
  reporter.report(SPEC_QUORUM_AGREE_ON_UNHASHABLE, {
    message: SPEC_QUORUM_AGREE_ON_UNHASHABLE.message(step.id, typeToString(checked.type)),
    path: `flows.${step.flow.name}.steps.${step.id}.agree_on`,
    range: checked.node.mapRange(0, checked.text.length),
  });
  return true;
}
