// The two files of a stored flow (docs/design/durable-store.md): `<id>.json`, the snapshot (the flow file
// of docs/reference/runtime.md §14.1 as of some revision r), and `<id>.journal`, the state deltas committed after
// it (revisions r+1, r+2, …, framed by journal.ts). This module reads them as one consistent flow
// and says what the store knows of them (stamps), so a writer can check under the lock, with two
// stat calls, that nobody changed the flow since.
//
// Reading order matters: the journal first, then the snapshot. A writer that snapshots renames the
// new snapshot into place before it removes the journal, so whatever journal a reader saw, the
// snapshot it reads next is at least as new as that journal's base: entries at or below the
// snapshot's revision are older than it (a crash between rename and removal leaves them) and are
// skipped; the rest must follow it one by one.
import type { BigIntStats } from "node:fs";
import * as fs from "node:fs";
import { deltaRevisionOf, revisionOf, sequenceGap } from "../../interpreter/index";
import { openRegularFile } from "../regular-file";
import { errorCode } from "./fs-util";
import { type JournalScan, readJournal } from "./journal";

/** A file's identity and version: `mtimeNs:size:ino` (changes with every write and every rename). */
export type Stamp = string;

export function stampOf(stat: BigIntStats): Stamp {
  return `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
}

/** What a reader or writer last saw of a flow's files. */
export interface FlowFilesState {
  readonly snapshotStamp: Stamp;
  readonly snapshotBytes: number;
  /** null: no journal file. */
  readonly journalStamp: Stamp | null;
  readonly journalBytes: number;
  /** The flow's revision: the last journal entry's, else the snapshot's. */
  readonly revision: number;
}

/** The change token of a flow (store.ts ChangeToken): both files' stamps. */
export function tokenOf(state: Pick<FlowFilesState, "snapshotStamp" | "journalStamp">): string {
  return `${state.snapshotStamp}|${state.journalStamp ?? "-"}`;
}

export interface FlowFiles extends FlowFilesState {
  readonly text: string;
  /** Delta texts newer than the snapshot, in order. */
  readonly deltas: readonly string[];
  /** The journal as scanned (null when there is none): a torn tail is dropped by the next writer. */
  readonly scan: JournalScan | null;
  /** Why the journal cannot be used (corrupt, or out of sequence); null when it can. */
  readonly journalProblem: string | null;
  /** The later modification time of the two files, ms since the epoch (the last commit). */
  readonly modifiedMs: number;
}

export interface FlowPaths {
  readonly snapshot: string;
  readonly journal: string;
}

/** Reads a flow's files; null when it has no snapshot (a journal alone is a leftover, not a flow). */
export function readFlowFiles(paths: FlowPaths): FlowFiles | null {
  const journal = readJournalWithStamp(paths.journal);
  const snapshot = readWithStamp(paths.snapshot);
  if (snapshot === null) return null;
  const base = revisionOf(snapshot.text) ?? 0;
  const scan = journal?.scan ?? null;
  const sequence = scan === null ? { deltas: [], revision: base, problem: null } : newerEntries(scan, base);
  const damage = scan?.damage;
  const corrupt =
    damage?.kind === "corrupt"
      ? `damaged at byte ${damage.offset} (${damage.reason}) with entries after it`
      : null;
  return {
    text: snapshot.text,
    snapshotStamp: snapshot.stamp,
    snapshotBytes: snapshot.bytes,
    journalStamp: journal?.stamp ?? null,
    // What the next append must find: the intact entries' end (a torn tail is cut first).
    journalBytes: scan?.end ?? 0,
    deltas: sequence.deltas,
    revision: sequence.revision,
    scan,
    journalProblem: corrupt ?? sequence.problem,
    modifiedMs: Math.max(snapshot.modifiedMs, journal?.modifiedMs ?? 0),
  };
}

/** The entries after the snapshot's revision, checked to follow it one by one. */
function newerEntries(
  scan: JournalScan,
  base: number,
): { deltas: string[]; revision: number; problem: string | null } {
  const deltas: string[] = [];
  let revision = base;
  for (const entry of scan.entries) {
    const r = deltaRevisionOf(entry.payload);
    if (r === null) return { deltas, revision, problem: `the entry at byte ${entry.offset} is not a delta` };
    if (r < base) continue; // older than the snapshot: left by a crash before the journal was removed
    if (r === base) {
      // A snapshot replaces the entry of its own revision, so both existing means two writers
      // that did not see each other (an older stratumc that knows only the snapshot).
      return {
        deltas,
        revision,
        problem: `the entry at byte ${entry.offset} has revision ${r}, which the snapshot already has: the flow file was written by a program that does not know the journal (an older stratumc?)`,
      };
    }
    const gap = sequenceGap(r, revision);
    if (gap !== null) return { deltas, revision, problem: `the entry at byte ${entry.offset} ${gap}` };
    deltas.push(entry.payload);
    revision = r;
  }
  return { deltas, revision, problem: null };
}

function readWithStamp(
  path: string,
): { text: string; stamp: Stamp; bytes: number; modifiedMs: number } | null {
  let fd: number;
  try {
    // Never blocks: a FIFO or device where the flow file should be is refused, not waited on.
    fd = openRegularFile(path);
  } catch (e) {
    if (isAbsent(e)) return null;
    throw e;
  }
  try {
    // Text and stamp from the same open file, so they agree even if a rename happens meanwhile.
    const stat = fs.fstatSync(fd, { bigint: true });
    const text = fs.readFileSync(fd, "utf8");
    return { text, stamp: stampOf(stat), bytes: Number(stat.size), modifiedMs: msOf(stat) };
  } catch (e) {
    if (isAbsent(e)) return null;
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

function readJournalWithStamp(path: string): { scan: JournalScan; stamp: Stamp; modifiedMs: number } | null {
  // Stat first: an append after the stat makes the stamp older than what was read, so the next
  // token comparison sees a change and reloads (never the reverse).
  const stat = fs.statSync(path, { bigint: true, throwIfNoEntry: false });
  if (stat === undefined) return null;
  const scan = readJournal(path);
  if (scan === null) return null;
  return { scan, stamp: stampOf(stat), modifiedMs: msOf(stat) };
}

/**
 * The current stamps of a flow's files, without reading them (null snapshot: no flow), and what
 * the journal's stat said (undefined: no journal), which identifies its file (device and inode).
 */
export function statFlowFiles(paths: FlowPaths): {
  snapshot: Stamp | null;
  journal: Stamp | null;
  journalStat: BigIntStats | undefined;
} {
  const snapshot = fs.statSync(paths.snapshot, { bigint: true, throwIfNoEntry: false });
  const journal = fs.statSync(paths.journal, { bigint: true, throwIfNoEntry: false });
  return {
    snapshot: snapshot?.isFile() ? stampOf(snapshot) : null,
    journal: journal === undefined ? null : stampOf(journal),
    journalStat: journal,
  };
}

function msOf(stat: BigIntStats): number {
  return Number(stat.mtimeNs / 1000n) / 1000;
}

function isAbsent(e: unknown): boolean {
  const code = errorCode(e);
  return code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR";
}
