// The flow name written on a sub-flow step (whether or not that flow exists).
import type { StepDecl } from "../../model/types";

export function flowName(step: StepDecl): string | null {
  if (step.kind !== "flow") return null;
  return step.target?.name ?? step.string("flow")?.value ?? null;
}
