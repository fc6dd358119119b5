// The one rule every reader of a journal checks (the file store's journal, PostgreSQL's delta
// rows, decodeStoredFlow applying deltas): each delta leads to the revision after the one before
// it. The wording is shared too; each caller names the entry its own way (a byte offset, a row).

/**
 * Null when a delta of `revision` follows `previous` (it is `previous + 1`), else the end of the
 * message saying why not: `has revision 7, 5 expected`.
 */
export function sequenceGap(revision: number, previous: number): string | null {
  return revision === previous + 1 ? null : `has revision ${revision}, ${previous + 1} expected`;
}
