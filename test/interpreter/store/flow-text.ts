// Synthetic flow files for the store tests (the store only cares about the text and its revision):
// a minimal FlowState with the given id, revision and one stored output.
import type { FlowState } from "../../../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { encodeDelta } from "../../../interpreter/store/delta";
import type { FlowStore, StoreWrite } from "../../../interpreter/store/store";
import { decodeStoredFlow } from "../../../interpreter/store/stored-state";
import type { PyValue } from "../../../stdlib/values/value";

function flowState(flowId: string, revision: number, payload: PyValue = null): FlowState {
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

/** The payload the crash test's child writes at each revision: its size varies from write to write. */
export function crashPayload(flowId: string, revision: number): string {
  return `${flowId}@${revision}:${"x".repeat((revision * 997) % 6000)}`;
}

/**
 * The write of a synthetic flow's next revision as a journaled store receives it from the engine:
 * a delta that puts the new payload (O(change)), and the complete text for when it snapshots.
 */
export function payloadWrite(
  flowId: string,
  expectedRevision: number,
  payload: PyValue,
  finished = false,
): StoreWrite {
  const revision = expectedRevision + 1;
  const delta = encodeDelta({
    revision,
    status: "running",
    set: {},
    append: {},
    put: { step_outputs: new Map([["payload", payload]]) },
    delete: {},
  });
  return {
    flowId,
    text: () => flowText(flowId, revision, payload),
    delta: expectedRevision === 0 ? null : delta,
    finished,
    expectedRevision,
    revision,
  };
}

/** The revision and payload of a stored synthetic flow (snapshot and journal); null when absent. */
export async function storedPayload(
  store: FlowStore,
  flowId: string,
): Promise<{ readonly revision: number; readonly payload: PyValue } | null> {
  const stored = await store.read(flowId);
  if (stored === null) return null;
  const decoded = decodeStoredFlow(stored);
  if (!decoded.ok) throw new Error(`flow ${flowId} does not decode (${decoded.part}): ${decoded.reason}`);
  return { revision: decoded.state.revision, payload: decoded.state.step_outputs.get("payload") ?? null };
}

/** The journal size from which the store tests' children snapshot (small: kills land in both). */
export const SNAPSHOT_EVERY_BYTES = 16 * 1024;
