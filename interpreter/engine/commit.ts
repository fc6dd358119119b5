// Committing a call (runtime.md §14.2, §15): every touched or created flow gets its derived
// status and the next revision, all writes and deletions go to the store as one batch (children
// before parents), and only then does the registry take the new copies.
import type { FlowRun } from "../flow/run";
import { inProgress, persistedStatus } from "../flow/status";
import { encodeFlowState } from "../store/codec";
import type { FlowStore, StoreDelete, StoreWrite } from "../store/store";
import type { Registry } from "./registry";
import type { EngineTx } from "./transaction";

export async function commitTx(tx: EngineTx, store: FlowStore, registry: Registry): Promise<void> {
  const writes: StoreWrite[] = [];
  const deletes: StoreDelete[] = [];
  const written: { run: FlowRun; size: number }[] = [];
  for (const run of childrenFirst([...tx.working.values()])) {
    const id = run.state.flow_id;
    const created = tx.created.has(id);
    if (tx.detached.has(id)) {
      if (created) continue; // created and detached in one call: never persisted
      if (inProgress(persistedStatus(run))) continue; // deleted below
    }
    const expectedRevision = created ? 0 : (tx.loaded.get(id)?.state.revision ?? 0);
    run.state.status = persistedStatus(run);
    run.state.revision = expectedRevision + 1;
    const text = encodeFlowState(run.state);
    writes.push({ flowId: id, text, expectedRevision });
    written.push({ run, size: text.length });
  }
  for (const id of tx.detached) {
    if (tx.created.has(id)) continue;
    const run = tx.working.get(id) ?? tx.loaded.get(id);
    const committed = tx.loaded.get(id);
    // A child that could not be loaded is left alone; a finished one is kept (DIV-KEEP-FINISHED).
    if (run === undefined || committed === undefined || !inProgress(persistedStatus(run))) continue;
    deletes.push({ flowId: id, expectedRevision: committed.state.revision });
  }
  if (writes.length === 0 && deletes.length === 0) return;
  const tokens = await store.commit({ writes, deletes });
  for (const { run, size } of written) {
    const token = tokens.get(run.state.flow_id);
    if (token === undefined) registry.drop(run.state.flow_id);
    else registry.set(run.state.flow_id, { run, token, size });
  }
  for (const id of tx.detached) registry.drop(id);
}

/** Orders runs so that every child comes before its parent (sub-flows nest: depth first). */
function childrenFirst(runs: FlowRun[]): FlowRun[] {
  const byId = new Map(runs.map((r) => [r.state.flow_id, r]));
  const depth = (run: FlowRun): number => {
    let d = 0;
    const seen = new Set<string>();
    for (let p = run.state.parent_flow_id; p !== null && byId.has(p) && !seen.has(p); d++) {
      seen.add(p);
      p = byId.get(p)?.state.parent_flow_id ?? null;
    }
    return d;
  };
  return runs
    .map((run, i) => ({ run, i, d: depth(run) }))
    .sort((a, b) => b.d - a.d || a.i - b.i)
    .map((x) => x.run);
}
