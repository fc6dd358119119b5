// Loading flows for the CLI's read-only commands (docs/reference/runtime.md §21.1 `query`, docs/reference/runtime.md §21.2 `flows prune`):
// every stored flow that restores, in file-name order. A flow that does not restore (a spec that no
// longer validates, a flow name missing from its spec) is left out, as the spec says; one that
// disappears between listing and reading (pruned or detached meanwhile) too. A file that cannot be
// decoded at all (bad JSON, a value of the wrong kind) is corrupt: `loadFlow` throws
// FlowCorruptError, `loadAllFlows` reports it to its caller instead of leaving it out silently.

import type { FlowState } from "../base/flow-state";
import type { FlowRun } from "../flow/run";
import { type ChangeToken, FlowCorruptError, type FlowStore, type StoredFlow } from "../store/store";
import { corruptError, decodeStoredFlow } from "../store/stored-state";

/** Rebuilds a run from a decoded flow state (engine/restore.ts with a compiler and a clock); null when it does not restore. */
export type RestoreFlow = (state: FlowState) => FlowRun | null;

export interface LoadedFlow {
  /** The id the flow is stored under (its file name), normally `run.state.flow_id`. */
  readonly flowId: string;
  readonly run: FlowRun;
  /** The change token of the text the run was restored from (prune deletes only that version). */
  readonly token: ChangeToken;
  /** Last modification of the stored flow, ms since the epoch (0 when the store does not know it). */
  readonly modifiedMs: number;
}

/** A stored flow whose file cannot be decoded. */
export interface CorruptFlow {
  readonly flowId: string;
  /** Where it is stored (the store's `locate`, else the id). */
  readonly file: string;
  readonly problem: string;
}

/** One flow by id; null when it is unknown or does not restore; throws FlowCorruptError for a corrupt file. */
export async function loadFlow(
  store: FlowStore,
  flowId: string,
  restore: RestoreFlow,
): Promise<LoadedFlow | null> {
  const stored = await store.read(flowId);
  if (stored === null) return null;
  const restored = restoreStored(store, flowId, stored, restore);
  if (restored instanceof FlowCorruptError) throw restored;
  return restored === null
    ? null
    : { flowId, run: restored, token: stored.token, modifiedMs: stored.modifiedMs ?? 0 };
}

/** Every flow that restores, in file-name order; `onCorrupt` hears of every corrupt file, in that order. */
export async function loadAllFlows(
  store: FlowStore,
  restore: RestoreFlow,
  onCorrupt: (corrupt: CorruptFlow) => void = () => undefined,
): Promise<LoadedFlow[]> {
  const loaded: LoadedFlow[] = [];
  for (const info of await store.list()) {
    const stored = await store.read(info.flowId);
    if (stored === null) continue;
    const restored = restoreStored(store, info.flowId, stored, restore);
    if (restored instanceof FlowCorruptError) {
      onCorrupt({ flowId: info.flowId, file: restored.file, problem: restored.problem });
    } else if (restored !== null) {
      loaded.push({ flowId: info.flowId, run: restored, token: stored.token, modifiedMs: info.modifiedMs });
    }
  }
  return loaded;
}

/** The run of a stored flow; null when it does not restore; the error when it does not decode. */
function restoreStored(
  store: FlowStore,
  flowId: string,
  stored: StoredFlow,
  restore: RestoreFlow,
): FlowRun | FlowCorruptError | null {
  const decoded = decodeStoredFlow(stored);
  return decoded.ok ? restore(decoded.state) : corruptError(store, flowId, stored, decoded);
}
