// The durable FlowStore (docs/reference/runtime.md §14, docs/design/durable-store.md): per flow, `$STRATUM_HOME/flows/
// <id>.json` (a snapshot in the reference-compatible layout) and `<id>.journal` (the deltas
// committed since, one framed entry each). A committing call appends its delta and flushes it
// (O(change), one fdatasync); a new flow, a finished flow, and a flow whose journal has grown as
// large as its snapshot (at least 256 KiB) get a fresh snapshot instead, after which the journal
// is removed. A crash leaves every flow either old or new: a torn last entry is dropped.
//
// A commit locks every flow it touches (sorted order, so two commits cannot deadlock) and checks
// their revisions before it writes. The store remembers what it last read or wrote of each flow's
// files (their stamps and revision), so the check is two stat calls unless another process wrote.
// Locks know their owner (lock.ts): a lock left by a process that died is taken over at once, and
// that writer's temporary files and torn journal tail are cleaned up. Writes that fail because the
// store cannot be written (read-only, full, no permission) reject with StoreUnwritableError naming
// the path and the OS reason, and change nothing.
//
// File system calls are synchronous inside the async methods: the engine serialises calls, the
// calls are short, and no other work of this process can interleave between reading a revision
// and writing. Only the waits for a lock yield to the event loop.
import type { BigIntStats } from "node:fs";
import * as fs from "node:fs";
import { join } from "node:path";
import {
  assertSafeFlowId,
  batchFlowIds,
  type ChangeToken,
  checkRevisions,
  deltaToAppend,
  FlowCorruptError,
  type FlowStore,
  isSafeFlowId,
  MIN_SNAPSHOT_SIZE,
  RecentFlows,
  type StoreBatch,
  type StoredFlow,
  type StoredFlowInfo,
  StoreLockedError,
  type StoreWrite,
} from "../../interpreter/index";
import { compareCodePoints } from "../../stdlib/index";
import { notRegularReason } from "../regular-file";
import {
  type FlowFiles,
  type FlowFilesState,
  type FlowPaths,
  readFlowFiles,
  stampOf,
  statFlowFiles,
  tokenOf,
} from "./flow-files";
import { errorCode, fsyncDirectory, unlinkIfPresent, unwritableError, writeTemporary } from "./fs-util";
import { appendEntryKeepOpen, appendThrough, FRAME_HEADER_BYTES, truncateTornTail } from "./journal";
import { flowDirNames, removeDeadTemporaries, removeOldLeftovers } from "./leftovers";
import {
  acquireLock,
  DEFAULT_LOCK_TIMINGS,
  type HeldLock,
  type LockTimings,
  ownerGone,
  readLock,
  releaseLock,
} from "./lock";
import { closeQuietly, MAX_OPEN_JOURNALS, OpenJournals, sameOpenFile } from "./open-journals";

export interface FileStoreOptions {
  /** Lock timings (docs/reference/runtime.md §14.3 defaults); tests shorten them or inject a clock. */
  readonly lock?: Partial<LockTimings>;
  /** The journal size from which a snapshot is written (default 256 KiB; tests make it small). */
  readonly minSnapshotBytes?: number;
  /**
   * Write every commit as a whole snapshot, never a journal entry, so that `<id>.json` is current
   * after every call, as the reference's flow file is (STRATUM_REFERENCE_FLOW_FILES=1, for readers
   * of that file such as the reference's dashboard; every call then rewrites the whole file).
   */
  readonly snapshotEveryCommit?: boolean;
  /**
   * How many journals stay open between commits (open-journals.ts; default 32, none on Windows,
   * where an open file's name cannot be reused until it is closed).
   */
  readonly openJournals?: number;
}

const FLOW_FILE = ".json";
const JOURNAL_FILE = ".journal";

/** One write of a commit, decided under the locks. */
type Step =
  | {
      readonly kind: "append";
      readonly write: StoreWrite;
      readonly delta: string;
      /** The flow's files before the append (the snapshot stays as it is). */
      readonly before: FlowFilesState;
      /** The journal's stat at its path under this lock, when the store's memory was current. */
      readonly atPath: BigIntStats | undefined;
    }
  | { readonly kind: "snapshot"; readonly write: StoreWrite; readonly tmp: string };

export class FileFlowStore implements FlowStore {
  /** `$STRATUM_HOME/flows`, created by the first commit. */
  readonly flowsDir: string;
  private readonly timings: LockTimings;
  private readonly minSnapshotBytes: number;
  private readonly snapshotEveryCommit: boolean;
  /** What this process last read or wrote of each flow's files (least recently used first). */
  private readonly known = new RecentFlows<FlowFilesState>();
  /** Journals kept open between commits (used only after checking them under the lock). */
  private readonly journals: OpenJournals;

  constructor(stratumHome: string, options: FileStoreOptions = {}) {
    this.flowsDir = join(stratumHome, "flows");
    this.timings = { ...DEFAULT_LOCK_TIMINGS, ...options.lock };
    this.minSnapshotBytes = options.minSnapshotBytes ?? MIN_SNAPSHOT_SIZE;
    this.snapshotEveryCommit = options.snapshotEveryCommit === true;
    this.journals = new OpenJournals(
      options.openJournals ?? (process.platform === "win32" ? 0 : MAX_OPEN_JOURNALS),
    );
    try {
      removeDeadTemporaries(this.flowsDir, null, this.timings);
    } catch {
      // best effort: an unreadable store fails later, on the call that needs it, with its reason
    }
  }

  locate(flowId: string): string {
    return isSafeFlowId(flowId) ? this.flowPath(flowId) : join(this.flowsDir, flowId);
  }

  /** The snapshot file of a flow; only for safe ids, so no id reaches outside `flows/`. */
  flowPath(flowId: string): string {
    assertSafeFlowId(flowId);
    return join(this.flowsDir, flowId + FLOW_FILE);
  }

  /** The journal file of a flow (safe ids only). */
  journalPath(flowId: string): string {
    assertSafeFlowId(flowId);
    return join(this.flowsDir, flowId + JOURNAL_FILE);
  }

  async read(flowId: string): Promise<StoredFlow | null> {
    if (!isSafeFlowId(flowId)) return null;
    this.cleanAfterDeadWriter(flowId);
    const files = readFlowFilesOf(flowId, this.paths(flowId));
    if (files === null) return null;
    this.remember(flowId, files);
    return {
      text: files.text,
      deltas: files.deltas,
      revision: files.revision,
      token: tokenOf(files),
      deltaSource: this.journalPath(flowId),
      modifiedMs: files.modifiedMs,
      ...(files.journalProblem === null ? {} : { deltaProblem: files.journalProblem }),
    };
  }

  /** How many flows this store remembers the files of (tests and benchmarks: in-progress ones only). */
  get rememberedFlows(): number {
    return this.known.size;
  }

  async token(flowId: string): Promise<ChangeToken | null> {
    if (!isSafeFlowId(flowId)) return null;
    const stamps = statFlowFiles(this.paths(flowId));
    return stamps.snapshot === null
      ? null
      : tokenOf({ snapshotStamp: stamps.snapshot, journalStamp: stamps.journal });
  }

  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    const ids = batchFlowIds(batch);
    ids.forEach(assertSafeFlowId);
    const held = new Map<string, HeldLock>();
    try {
      // A flow this store remembers has its files in `flows/` (if the folder went away, so did
      // the flow, and the revision check refuses the call): the mkdir is for new flows only.
      if (!ids.every((id) => this.known.has(id))) this.makeFlowsDir();
      for (const id of ids) {
        const lock = await acquireLock(this.lockPath(id), this.timings);
        if (lock === null) throw new StoreLockedError(id);
        held.set(id, lock);
        if (lock.tookOver) removeDeadTemporaries(this.flowsDir, id, this.timings);
      }
      const current = new Map<string, FlowFilesState | null>();
      const journalStats = new Map<string, BigIntStats>();
      for (const id of ids) current.set(id, this.currentUnderLock(id, held.get(id)!, journalStats));
      checkRevisions(batch, (id) => current.get(id)?.revision ?? null);
      this.apply(batch, current, journalStats);
      const tokens = new Map<string, ChangeToken>();
      for (const w of batch.writes) {
        tokens.set(w.flowId, tokenOf(this.known.get(w.flowId)!));
        // A finished flow is not written again (a later write re-reads it under its lock): what
        // was remembered of it would only fill the map, so a long-lived server stays flat.
        if (w.finished) this.known.forget(w.flowId);
      }
      return tokens;
    } catch (e) {
      for (const id of ids) {
        this.known.forget(id); // re-read on the next commit, whatever happened
        this.journals.close(id);
      }
      throw unwritableError(e, this.flowsDir) ?? e;
    } finally {
      for (const lock of held.values()) {
        try {
          releaseLock(lock);
        } catch {
          // a lock we cannot remove (the store became unwritable) is taken over once we are gone
        }
      }
    }
  }

  async list(): Promise<readonly StoredFlowInfo[]> {
    const out: StoredFlowInfo[] = [];
    for (const name of flowDirNames(this.flowsDir).sort(compareCodePoints)) {
      if (!name.endsWith(FLOW_FILE)) continue; // journals, locks, temporary files, anything else
      const flowId = name.slice(0, -FLOW_FILE.length);
      if (!isSafeFlowId(flowId)) continue;
      const stat = fs.statSync(join(this.flowsDir, name), { throwIfNoEntry: false });
      if (!stat?.isFile()) continue;
      const journal = fs.statSync(this.journalPath(flowId), { throwIfNoEntry: false });
      out.push({ flowId, modifiedMs: Math.max(stat.mtimeMs, journal?.mtimeMs ?? 0) });
    }
    return out;
  }

  async remove(flowId: string): Promise<boolean> {
    if (!isSafeFlowId(flowId)) return false;
    if (!fs.existsSync(this.flowPath(flowId))) {
      this.journals.close(flowId); // removed by another process: nothing left to append to
      return false;
    }
    let lock: HeldLock | null = null;
    try {
      lock = await acquireLock(this.lockPath(flowId), this.timings);
      if (lock === null) throw new StoreLockedError(flowId);
      if (lock.tookOver) removeDeadTemporaries(this.flowsDir, flowId, this.timings);
      this.known.forget(flowId);
      this.journals.close(flowId);
      unlinkIfPresent(this.journalPath(flowId));
      const removed = unlinkIfPresent(this.flowPath(flowId));
      fsyncDirectory(this.flowsDir);
      return removed;
    } catch (e) {
      throw unwritableError(e, this.flowsDir) ?? e;
    } finally {
      if (lock !== null) releaseLock(lock);
    }
  }

  /**
   * Removes what crashed writers left behind: temporary files, set-aside and abandoned locks, and
   * journals without a snapshot, older than the stale-lock age (docs/reference/runtime.md §14.3: 30 s). Returns how many
   * files it removed. For `flows prune`; the store works without it (leftovers are never read).
   */
  async removeLeftovers(): Promise<number> {
    return removeOldLeftovers(this.flowsDir, this.timings);
  }

  /** Closes the journals this store keeps open (the store stays usable: it opens them again). */
  close(): void {
    this.journals.closeAll();
  }

  /** How many journals this store keeps open (for tests). */
  get openJournalCount(): number {
    return this.journals.size;
  }

  private paths(flowId: string): FlowPaths {
    return { snapshot: this.flowPath(flowId), journal: this.journalPath(flowId) };
  }

  private lockPath(flowId: string): string {
    return `${this.flowPath(flowId)}.lock`;
  }

  /**
   * The flow's files as they are now, under its lock: what the store remembers when both stamps
   * still match (two stat calls), else read again; a torn journal tail is cut off here, before
   * anything is appended. Null when the flow has no snapshot. A corrupt journal is refused.
   * When the memory is current, the journal's stat is put in `journalStats` (for a kept
   * journal's check); otherwise a journal kept open for the flow is closed.
   */
  private currentUnderLock(
    flowId: string,
    lock: HeldLock,
    journalStats: Map<string, BigIntStats>,
  ): FlowFilesState | null {
    const paths = this.paths(flowId);
    const remembered = this.known.get(flowId);
    if (remembered !== undefined) {
      const stamps = statFlowFiles(paths);
      // A journal remembered from a read may end in a torn tail (a writer killed inside an
      // append): its intact end is then short of the file's, and the tail is cut below first.
      const journalSize = stamps.journalStat === undefined ? 0 : Number(stamps.journalStat.size);
      if (
        stamps.snapshot === remembered.snapshotStamp &&
        stamps.journal === remembered.journalStamp &&
        journalSize === remembered.journalBytes
      ) {
        if (stamps.journalStat !== undefined) journalStats.set(flowId, stamps.journalStat);
        return remembered;
      }
    }
    this.journals.close(flowId);
    const files = readFlowFilesOf(flowId, paths);
    if (files === null) {
      this.known.forget(flowId);
      return null;
    }
    if (files.journalProblem !== null)
      throw new FlowCorruptError(flowId, paths.journal, files.journalProblem);
    if (files.scan?.damage?.kind === "torn") {
      truncateTornTail(paths.journal, files.scan, lock);
      const journal = fs.statSync(paths.journal, { bigint: true });
      const cut: FlowFilesState = {
        ...files,
        journalStamp: stampOf(journal),
        journalBytes: Number(journal.size),
      };
      this.remember(flowId, cut);
      return cut;
    }
    this.remember(flowId, files);
    return files;
  }

  /**
   * Writes the batch: every snapshot is first written to a flushed temporary file (a failure
   * there changes nothing), then in batch order (children before parents) each flow gets its
   * entry appended or its snapshot renamed into place; if an append fails, the entries appended
   * before it are cut off again. Then deletions.
   */
  private apply(
    batch: StoreBatch,
    current: ReadonlyMap<string, FlowFilesState | null>,
    journalStats: ReadonlyMap<string, BigIntStats>,
  ): void {
    const steps: Step[] = [];
    try {
      for (const w of batch.writes) {
        steps.push(this.plan(w, current.get(w.flowId) ?? null, journalStats.get(w.flowId)));
      }
      const appended: { path: string; size: number }[] = [];
      try {
        for (const step of steps) {
          if (step.kind === "append") {
            const path = this.journalPath(step.write.flowId);
            const fd = this.appendJournal(step, path);
            appended.push({ path, size: step.before.journalBytes });
            try {
              this.rememberAppended(step.write, step.before, fd);
            } catch (e) {
              closeQuietly(fd);
              throw e;
            }
            this.journals.keep(step.write.flowId, fd);
          } else {
            this.journals.close(step.write.flowId);
            this.publishSnapshot(step.write.flowId, step.tmp);
            this.rememberSnapshot(step.write);
          }
        }
      } catch (e) {
        for (const { path, size } of appended) cutBack(path, size);
        throw e;
      }
    } finally {
      for (const step of steps) if (step.kind === "snapshot") unlinkIfPresent(step.tmp);
    }
    for (const d of batch.deletes) {
      this.known.forget(d.flowId);
      this.journals.close(d.flowId);
      unlinkIfPresent(this.journalPath(d.flowId));
      unlinkIfPresent(this.flowPath(d.flowId));
    }
    if (batch.deletes.length > 0) fsyncDirectory(this.flowsDir);
  }

  /** Append or snapshot: a snapshot for a new or finished flow, or when the journal has grown enough. */
  private plan(w: StoreWrite, state: FlowFilesState | null, atPath: BigIntStats | undefined): Step {
    const sizes = state === null ? null : { snapshot: state.snapshotBytes, journal: state.journalBytes };
    const delta = this.snapshotEveryCommit
      ? null
      : deltaToAppend(w, sizes, journalEntryBytes, this.minSnapshotBytes);
    if (delta !== null && state !== null) return { kind: "append", write: w, delta, before: state, atPath };
    return { kind: "snapshot", write: w, tmp: writeTemporary(this.flowPath(w.flowId), w.text()) };
  }

  /**
   * Renames a snapshot into place and flushes the directory, then removes the journal it replaces
   * (its entries are all older than the snapshot now: a crash before the removal leaves entries
   * that readers skip), and flushes the directory again.
   */
  private publishSnapshot(flowId: string, tmp: string): void {
    fs.renameSync(tmp, this.flowPath(flowId));
    fsyncDirectory(this.flowsDir);
    if (unlinkIfPresent(this.journalPath(flowId))) fsyncDirectory(this.flowsDir);
  }

  /**
   * Appends a step's entry: through the journal kept open for the flow when it is provably the
   * file at `path` (checked against the journal's stat taken under this lock), else by opening
   * the journal. Returns the journal's descriptor, open: the caller keeps or closes it.
   */
  private appendJournal(step: Step & { kind: "append" }, path: string): number {
    const flowId = step.write.flowId;
    const size = step.before.journalBytes;
    const kept = this.journals.take(flowId);
    if (kept !== undefined) {
      if (step.atPath !== undefined && keptIsFile(kept, step.atPath, size)) {
        try {
          appendThrough(kept, path, step.delta, size);
        } catch (e) {
          closeQuietly(kept);
          throw e;
        }
        return kept;
      }
      closeQuietly(kept);
    }
    return appendEntryKeepOpen(path, step.delta, { expectedSize: size }).fd;
  }

  /**
   * Remembers a flow's files after this process appended to its journal (the snapshot is
   * unchanged); `fd` is the journal appended to, still open.
   */
  private rememberAppended(w: StoreWrite, before: FlowFilesState, fd: number): void {
    const journal = fs.fstatSync(fd, { bigint: true });
    this.remember(w.flowId, {
      ...before,
      journalStamp: stampOf(journal),
      journalBytes: Number(journal.size),
      revision: w.expectedRevision + 1,
    });
  }

  /** Remembers a flow's files after this process wrote its snapshot (the journal is gone). */
  private rememberSnapshot(w: StoreWrite): void {
    const snapshot = fs.statSync(this.flowPath(w.flowId), { bigint: true });
    this.remember(w.flowId, {
      snapshotStamp: stampOf(snapshot),
      snapshotBytes: Number(snapshot.size),
      journalStamp: null,
      journalBytes: 0,
      revision: w.expectedRevision + 1,
    });
  }

  private remember(flowId: string, files: FlowFiles | FlowFilesState): void {
    const state: FlowFilesState = {
      snapshotStamp: files.snapshotStamp,
      snapshotBytes: files.snapshotBytes,
      journalStamp: files.journalStamp,
      journalBytes: files.journalBytes,
      revision: files.revision,
    };
    this.known.remember(flowId, state);
  }

  /** `flows/`, created on demand; a file in its place is reported as ENOTDIR (not a directory). */
  private makeFlowsDir(): void {
    try {
      fs.mkdirSync(this.flowsDir, { recursive: true });
    } catch (e) {
      if (errorCode(e) !== "EEXIST") throw e;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${this.flowsDir}'`), {
        code: "ENOTDIR",
        path: this.flowsDir,
      });
    }
  }

  /**
   * Before reading a flow: when its lock was left by a dead process (a writer killed inside a
   * commit), removes that writer's temporary files. One stat when there is no lock (the usual case).
   */
  private cleanAfterDeadWriter(flowId: string): void {
    try {
      const lock = readLock(this.lockPath(flowId));
      if (lock !== null && ownerGone(lock)) removeDeadTemporaries(this.flowsDir, flowId, this.timings);
    } catch {
      // no lock (ENOENT), or a store we cannot read: the read itself reports that
    }
  }
}

/** What a delta adds to a journal: its frame and its UTF-8 bytes. */
function journalEntryBytes(delta: string): number {
  return FRAME_HEADER_BYTES + Buffer.byteLength(delta, "utf8");
}

/** Whether a kept journal descriptor is the file whose stat at the journal's path is `atPath`. */
function keptIsFile(fd: number, atPath: BigIntStats, size: number): boolean {
  try {
    return sameOpenFile(fs.fstatSync(fd, { bigint: true }), atPath, size);
  } catch {
    return false; // a descriptor that cannot be checked is not used
  }
}

/** Cuts a journal back to the size it had before this commit appended to it (best effort). */
function cutBack(path: string, size: number): void {
  try {
    if (size === 0) unlinkIfPresent(path);
    else fs.truncateSync(path, size);
  } catch {
    // what matters is why the commit failed; a reader drops what cannot be read as an entry
  }
}

export { stratumHome } from "./stratum-home";

/**
 * readFlowFiles, with a flow file that is not a regular file (a FIFO, a device) reported as the
 * flow's corruption, naming the file, instead of an unexpected error.
 */
function readFlowFilesOf(flowId: string, paths: FlowPaths): ReturnType<typeof readFlowFiles> {
  try {
    return readFlowFiles(paths);
  } catch (e) {
    const reason = notRegularReason(e);
    if (reason === null) throw e;
    throw new FlowCorruptError(flowId, `${paths.snapshot} or its journal`, reason);
  }
}
