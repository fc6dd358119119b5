// When a journaled store (the file store, the PostgreSQL store) appends a commit's delta to a
// flow's journal and when it writes the whole flow again as a snapshot (docs/design/durable-store.md).
// The rule is the stores' shared contract, so it lives here once; each store only measures sizes
// in its own unit (the file store in bytes with the entry's frame, PostgreSQL in characters) and
// writes what the rule chose.
import type { StoreWrite } from "./store";

/** Our choice: a journal is replaced by a snapshot once it is as large as the snapshot, and at least this. */
export const MIN_SNAPSHOT_SIZE = 256 * 1024;

/** What a store last saw of a flow's stored sizes, in its own unit. */
export interface JournalSizes {
  readonly snapshot: number;
  readonly journal: number;
}

/** Whether a write can be appended at all: it has a delta (the flow is not new) and is not finished. */
export function mayAppend(
  w: Pick<StoreWrite, "delta" | "finished">,
): w is { delta: string; finished: false } {
  return w.delta !== null && !w.finished;
}

/**
 * The delta to append, or null to write a snapshot. A snapshot is written for a new flow (no
 * delta), a flow whose sizes the store does not know, a finished flow, and when the journal with
 * this entry (`entrySize(delta)` more) would reach max(`minSnapshotSize`, the snapshot's size):
 * reading the flow then costs at most about twice its snapshot.
 */
export function deltaToAppend(
  w: Pick<StoreWrite, "delta" | "finished">,
  sizes: JournalSizes | null | undefined,
  entrySize: (delta: string) => number,
  minSnapshotSize: number = MIN_SNAPSHOT_SIZE,
): string | null {
  if (!mayAppend(w) || sizes === null || sizes === undefined) return null;
  const grown = sizes.journal + entrySize(w.delta);
  return grown < Math.max(minSnapshotSize, sizes.snapshot) ? w.delta : null;
}
