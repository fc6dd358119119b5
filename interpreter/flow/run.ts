// A flow execution as the state machine sees it: its persisted state plus what is derived from the
// spec (the checked IR of `raw_spec`, never persisted) and the per-process timing fields.
import type { CheckedSpec, FlowIR } from "../../checker/ir/types";
import type { FlowState } from "../base/flow-state";
import type { EditLog } from "./edit-log";

/** Not persisted; reset on restore (docs/reference/runtime.md §1.2), kept across an in-process reload (docs/reference/runtime.md §14.3). */
export interface FlowTiming {
  /** Monotonic ms at the flow's start (or restore). */
  startedAt: number;
  /** Step id → monotonic ms of its last dispatch in this process (non-gate steps). */
  readonly stepDispatchedAt: Map<string, number>;
  /** Step id → wall-clock ms of the gate's last dispatch in this process. */
  readonly gateDispatchedAt: Map<string, number>;
}

export interface FlowRun {
  /** Mutable only on a transaction's working copy. */
  readonly state: FlowState;
  readonly spec: CheckedSpec;
  /** The executed flow (`spec.flows.get(state.flow_name)`); steps in execution order (docs/reference/runtime.md §2). */
  readonly flow: FlowIR;
  readonly timing: FlowTiming;
  /**
   * A transaction's working copy: the log of its in-place changes of containers it shares with
   * the committed run (edits.ts); closed once committed, absent on flows created in the call.
   */
  readonly edits?: EditLog;
}
