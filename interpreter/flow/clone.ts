// Copies of flow state: a transaction's working copy, and checkpoint snapshots (runtime.md §10.1).
// Stored user data and records are immutable and shared; containers are copied.
import type { FlowState, Snapshot } from "./state";

/** A copy of the state that can be mutated without affecting `state`. */
export function cloneState(state: FlowState): FlowState {
  void state;
  throw new Error("cloneState: not implemented yet (A1)");
}

/** A deep copy of the snapshot fields of §10.1. */
export function takeSnapshot(state: FlowState): Snapshot {
  void state;
  throw new Error("takeSnapshot: not implemented yet (A1)");
}

/** Replaces the snapshot fields of `state` with a copy of `snapshot` (the snapshot stays intact). */
export function applySnapshot(state: FlowState, snapshot: Snapshot): void {
  void state;
  void snapshot;
  throw new Error("applySnapshot: not implemented yet (A1)");
}
