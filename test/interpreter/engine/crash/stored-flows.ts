// Reading flows back from a store as the driver sees them (driver.ts FlowView).
import type { FlowState } from "../../../../interpreter/base/flow-state";
import type { FlowStore } from "../../../../interpreter/store/store";
import { storedState } from "../../../support/stored-flow";
import type { FlowView } from "./driver";

/** The decoded stored state; null when there is no file; throws when the file does not decode. */
export async function readState(store: FlowStore, flowId: string): Promise<FlowState | null> {
  return storedState(store, flowId);
}

export async function readView(store: FlowStore, flowId: string): Promise<FlowView | null> {
  const state = await readState(store, flowId);
  if (state === null) return null;
  const childId = state.active_child_flow_id;
  return { state, child: childId === null ? null : await readState(store, childId) };
}

/** The revision stored for a flow, 0 when there is no file. */
export async function storedRevision(store: FlowStore, flowId: string): Promise<number> {
  return (await store.read(flowId))?.revision ?? 0;
}
