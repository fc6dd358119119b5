// The preconditions of a store commit (docs/reference/runtime.md §14.3 step 2), shared by every FlowStore implementation so
// that they refuse exactly the same batches.
import { FlowRemovedError, StaleStateError, type StoreBatch, type StoreWrite } from "./store";

/** The flow ids a batch touches, sorted (the lock order); throws on a malformed batch. */
export function batchFlowIds(batch: StoreBatch): string[] {
  const only = batch.writes.length === 1 && batch.deletes.length === 0 ? batch.writes[0] : undefined;
  if (only !== undefined) {
    // Most commits write one flow: no copies, no set, nothing to sort.
    checkWrittenRevision(only, only.revision);
    return [only.flowId];
  }
  const ids = [...batch.writes.map((w) => w.flowId), ...batch.deletes.map((d) => d.flowId)];
  const unique = new Set(ids);
  if (unique.size !== ids.length) throw new Error("store commit: a flow appears twice in one batch");
  // The revision each write carries is a value (StoreWrite.revision): nothing is parsed here.
  for (const w of batch.writes) checkWrittenRevision(w, w.revision);
  // Ids are safe file names (ASCII), so UTF-16 order is code point order.
  return [...unique].sort();
}

/**
 * Throws StaleStateError for the first write or delete whose flow exists with another revision
 * than the expected one. `storedRevision` gives null for a flow that does not exist. A flow that
 * does not exist is no conflict (docs/reference/runtime.md §14.3: only an existing file with another revision
 * is) — except for a write with a delta: that flow was read from the store, so it was removed since
 * (FlowRemovedError), and writing its full text would bring it back.
 */
export function checkRevisions(batch: StoreBatch, storedRevision: (flowId: string) => number | null): void {
  for (const w of batch.writes) {
    if (hasDelta(w) && storedRevision(w.flowId) === null) throw new FlowRemovedError(w.flowId);
  }
  for (const change of batch.writes) checkRevision(change, storedRevision);
  for (const change of batch.deletes) checkRevision(change, storedRevision);
}

function checkRevision(
  change: { readonly flowId: string; readonly expectedRevision: number },
  storedRevision: (flowId: string) => number | null,
): void {
  const stored = storedRevision(change.flowId);
  if (stored !== null && stored !== change.expectedRevision) {
    throw new StaleStateError(change.flowId, stored, change.expectedRevision);
  }
}

/** Throws unless `written` (the revision a write carries) is the one after its expected revision. */
function checkWrittenRevision(w: StoreWrite, written: number | null): void {
  if (written !== w.expectedRevision + 1) {
    throw new Error(
      `store commit: flow '${w.flowId}' is written with revision ${written}, expected ${w.expectedRevision + 1}`,
    );
  }
}

/** Whether a write is a change of a flow read from the store, without encoding its delta. */
function hasDelta(w: StoreWrite): boolean {
  return w.value === undefined ? w.delta !== null : w.value.change !== null;
}
