// Restoring a flow from its stored form (docs/reference/runtime.md §14.4).
import type { CheckedSpec } from "../../checker/ir/types";
import type { FlowState } from "../base/flow-state";
import type { Clock } from "../flow/ports";
import type { FlowRun } from "../flow/run";
import { persistedStatus } from "../flow/status";

/**
 * Rebuilds the run of a decoded flow state (store/stored-state.ts): re-checks `raw_spec` (any
 * error → null), finds the named flow (absent → null), resets timing (start = now). Null for
 * anything that does not restore. Takes ownership of `state`.
 */
export function restoreRun(
  state: FlowState,
  compile: (specText: string) => CheckedSpec | null,
  clock: Clock,
): FlowRun | null {
  const spec = compile(state.raw_spec);
  const flow = spec?.flows.get(state.flow_name);
  if (spec === null || flow === undefined) return null;
  const run: FlowRun = {
    state,
    spec,
    flow,
    timing: { startedAt: clock.monoMs(), stepDispatchedAt: new Map(), gateDispatchedAt: new Map() },
  };
  // Our choice: a current_idx outside 0..steps (a hand-edited file) does not restore.
  if (state.current_idx > flow.steps.length || state.current_idx < 0) return null;
  state.status = persistedStatus(run); // derived, never trusted from the file
  return run;
}
