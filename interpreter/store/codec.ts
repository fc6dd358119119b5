// The flow file format (runtime.md §14.1): FlowState ⇄ JSON text (C).
import type { FlowState } from "../flow/state";

/** The file text: Python `json.dumps(…, indent=2)` layout, keys in FlowState order, no trailing newline. */
export function encodeFlowState(state: FlowState): string {
  void state;
  throw new Error("encodeFlowState: not implemented yet (C)");
}

export type DecodedFlow =
  | { readonly ok: true; readonly state: FlowState }
  | { readonly ok: false; readonly reason: string };

/**
 * Parses a flow file (kind-preserving JSON); missing keys take their empty defaults (`revision` 0),
 * so files written by the reference restore; records without `type` are StepRecords. `status` is
 * re-derived by the engine, not trusted.
 */
export function decodeFlowState(text: string): DecodedFlow {
  void text;
  throw new Error("decodeFlowState: not implemented yet (C)");
}
