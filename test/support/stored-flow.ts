// A stored flow as tests look at it: the snapshot with its journal applied (store/stored-state.ts),
// as a state or as the complete flow-file text it would have if it were snapshotted now.
import type { FlowState } from "../../interpreter/base/flow-state";
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
