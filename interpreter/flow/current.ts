// Where a flow stands: its current step and whether it is finished (docs/reference/runtime.md §1.2).
import type { StepIR } from "../../checker/ir/types";
import type { FlowRun } from "./run";

/** A flow is finished when `current_idx` equals the number of steps. */
export function isFinished(run: FlowRun): boolean {
  return run.state.current_idx >= run.flow.steps.length;
}

/** The current step, or null when the flow is finished. */
export function currentStep(run: FlowRun): StepIR | null {
  return run.flow.steps[run.state.current_idx] ?? null;
}

/** Position of a step in the execution order (the step must exist: routing targets are checked statically). */
export function indexOfStep(run: FlowRun, stepId: string): number {
  const i = run.flow.steps.findIndex((s) => s.id === stepId);
  if (i < 0) throw new Error(`unknown step '${stepId}' in flow '${run.flow.name}'`);
  return i;
}
