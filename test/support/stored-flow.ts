// A stored flow as tests look at it: the snapshot with its journal applied (store/stored-state.ts),
// as a state or as the complete flow-file text it would have if it were snapshotted now.
import type { FlowState } from "../../interpreter/base/flow-state";
import { encodeFlowState } from "../../interpreter/store/codec";
import type { FlowStore } from "../../interpreter/store/store";
import { decodeStoredFlow } from "../../interpreter/store/stored-state";

/** The current state of a stored flow; null when there is none; throws when it does not decode. */
export async function storedState(store: FlowStore, flowId: string): Promise<FlowState | null> {
  const stored = await store.read(flowId);
  if (stored === null) return null;
  const decoded = decodeStoredFlow(stored);
  if (!decoded.ok) throw new Error(`flow ${flowId} does not decode (${decoded.part}): ${decoded.reason}`);
  return decoded.state;
}

/** The complete flow-file text of a stored flow's current state; throws when there is none. */
export async function storedText(store: FlowStore, flowId: string): Promise<string> {
  const state = await storedState(store, flowId);
  if (state === null) throw new Error(`flow ${flowId} is not stored`);
  return encodeFlowState(state);
}
