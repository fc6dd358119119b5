// A stored flow as a FlowState: the snapshot decoded, then every delta of its journal applied in
// order (docs/design/durable-store.md). One function for every reader (the engine's registry, `query`,
// `gate`, `flows prune`), so they all see the same state and refuse the same damage.
import type { FlowState } from "../base/flow-state";
import { decodeFlowState } from "./codec";
import { applyDeltaInPlace, decodeDelta } from "./delta";
import { sequenceGap } from "./delta-sequence";
import { FlowCorruptError, type FlowStore, type StoredFlow } from "./store";

export type DecodedStoredFlow =
  | { readonly ok: true; readonly state: FlowState }
  | {
      readonly ok: false;
      /** Which part is damaged: the snapshot text or a journal delta. */
      readonly part: "snapshot" | "journal";
      readonly reason: string;
    };

/** Decodes the snapshot and applies the deltas; the first problem found is the answer. */
export function decodeStoredFlow(stored: StoredFlow): DecodedStoredFlow {
  if (stored.text.trim() === "") return { ok: false, part: "snapshot", reason: "the file is empty" };
  const decoded = decodeFlowState(stored.text);
  if (!decoded.ok) return { ok: false, part: "snapshot", reason: decoded.reason };
  if (stored.deltaProblem !== undefined) return { ok: false, part: "journal", reason: stored.deltaProblem };
  const state = decoded.state;
  for (const [i, text] of stored.deltas.entries()) {
    const delta = decodeDelta(text);
    if ("problem" in delta) {
      return { ok: false, part: "journal", reason: `entry ${i + 1}: ${delta.problem}` };
    }
    const gap = sequenceGap(delta.revision, state.revision);
    if (gap !== null) return { ok: false, part: "journal", reason: `entry ${i + 1} ${gap}` };
    applyDeltaInPlace(state, delta);
  }
  return { ok: true, state };
}

/** The stored flow's weight in memory terms: its text and delta lengths (UTF-16 units). */
export function storedSize(stored: StoredFlow): number {
  let size = stored.text.length;
  for (const d of stored.deltas) size += d.length;
  return size;
}

/** The FlowCorruptError of a stored flow that does not decode, naming the damaged file. */
export function corruptError(
  store: FlowStore,
  flowId: string,
  stored: StoredFlow,
  failure: { readonly part: "snapshot" | "journal"; readonly reason: string },
): FlowCorruptError {
  const snapshot = store.locate?.(flowId) ?? flowId;
  const file = failure.part === "journal" ? (stored.deltaSource ?? snapshot) : snapshot;
  return new FlowCorruptError(flowId, file, failure.reason);
}
