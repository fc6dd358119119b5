// Synthetic flow files for the store tests (the store only cares about the text and its revision):
// a minimal FlowState with the given id, revision and one stored output.
import type { FlowState } from "../../../interpreter/flow/state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import type { PyValue } from "../../../stdlib/values/value";

export function flowState(flowId: string, revision: number, payload: PyValue = null): FlowState {
  const empty = decodeFlowState("{}");
  if (!empty.ok) throw new Error(empty.reason);
  return {
    ...empty.state,
    flow_id: flowId,
    flow_name: "main",
    step_outputs: new Map([["payload", payload]]),
    revision,
  };
}

export function flowText(flowId: string, revision: number, payload: PyValue = null): string {
  return encodeFlowState(flowState(flowId, revision, payload));
}

/** The stored output of a synthetic flow file, or an Error when the text does not decode. */
export function payloadOf(text: string): { readonly revision: number; readonly payload: PyValue } {
  const decoded = decodeFlowState(text);
  if (!decoded.ok) throw new Error(`flow file does not decode: ${decoded.reason}`);
  return { revision: decoded.state.revision, payload: decoded.state.step_outputs.get("payload") ?? null };
}

/** The payload the crash test's child writes at each revision: its size varies from write to write. */
export function crashPayload(flowId: string, revision: number): string {
  return `${flowId}@${revision}:${"x".repeat((revision * 997) % 6000)}`;
}
