// The persisted `status` of a flow, derived at every write (docs/reference/runtime.md §14.1).

import type { PersistedStatus } from "../base/flow-state";
import { currentStep } from "./current";
import type { FlowRun } from "./run";

export function persistedStatus(run: FlowRun): PersistedStatus {
  if (run.state.terminal_status !== null) return run.state.terminal_status;
  const step = currentStep(run);
  if (step === null) return "complete";
  if (step.kind === "gate") return "awaiting_gate";
  // A step stays current with its attempts at the limit only after retries_exhausted.
  if ((run.state.attempts.get(step.id) ?? 0) >= step.retries) return "exhausted";
  return "running";
}

/** Still in progress: a detached child in this state has its file deleted (docs/reference/runtime.md §8.3). */
export function inProgress(status: PersistedStatus): boolean {
  return status === "running" || status === "awaiting_gate";
}
