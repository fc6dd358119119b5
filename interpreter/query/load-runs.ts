// Loading flows for the CLI's read-only commands (runtime.md §21.1 `query`, §21.2 `flows prune`):
// every stored flow that restores, in file-name order. A flow that does not restore (bad JSON, a
// spec that no longer validates, a flow name missing from its spec) is left out, as the spec says;
// one that disappears between listing and reading (pruned or detached meanwhile) too.
import type { FlowRun } from "../flow/run";
import type { ChangeToken, FlowStore } from "../store/store";

/** Rebuilds a run from a flow file's text (engine/restore.ts with a compiler and a clock); null when it does not restore. */
export type RestoreFlow = (text: string) => FlowRun | null;

export interface LoadedFlow {
  /** The id the flow is stored under (its file name), normally `run.state.flow_id`. */
  readonly flowId: string;
  readonly run: FlowRun;
  /** The change token of the text the run was restored from (prune deletes only that version). */
  readonly token: ChangeToken;
  /** Last modification of the stored flow, ms since the epoch (from the listing; 0 when loaded by id). */
  readonly modifiedMs: number;
}

/** One flow by id; null when it is unknown or does not restore. */
export async function loadFlow(
  store: FlowStore,
  flowId: string,
  restore: RestoreFlow,
): Promise<LoadedFlow | null> {
  const stored = await store.read(flowId);
  if (stored === null) return null;
  const run = restore(stored.text);
  return run === null ? null : { flowId, run, token: stored.token, modifiedMs: 0 };
}

/** Every flow that restores, in file-name order. */
export async function loadAllFlows(store: FlowStore, restore: RestoreFlow): Promise<LoadedFlow[]> {
  const loaded: LoadedFlow[] = [];
  for (const info of await store.list()) {
    const stored = await store.read(info.flowId);
    if (stored === null) continue;
    const run = restore(stored.text);
    if (run !== null)
      loaded.push({ flowId: info.flowId, run, token: stored.token, modifiedMs: info.modifiedMs });
  }
  return loaded;
}
