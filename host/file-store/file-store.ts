// The durable FlowStore (runtime.md §14): one file per flow, `$STRATUM_HOME/flows/<id>.json`.
// A commit locks every flow it touches (sorted order, so two commits cannot deadlock), checks
// their revisions, writes each new text to a temporary file that is flushed and renamed over the
// flow file, deletes, flushes the directory and releases the locks; a crash therefore leaves every
// flow file either old or new, never partly written.
//
// Locks know their owner (lock.ts): a lock left by a process that died is taken over at once.
// Temporary files name their writer's pid; those of dead writers are removed when the store opens,
// when a flow whose lock was abandoned is read, and when a commit takes such a lock over. Writes
// that fail because the store cannot be written (read-only, full, no permission) reject with
// StoreUnwritableError naming the path and the OS reason.
//
// File system calls are synchronous inside the async methods: the engine serialises calls, the
// calls are short (a flow file is a few KB), and no other work of this process can interleave
// between reading a revision and writing. Only the waits for a lock yield to the event loop.
import * as fs from "node:fs";
import { join } from "node:path";
import { batchFlowIds, checkRevisions } from "../../interpreter/store/batch";
import { assertSafeFlowId, isSafeFlowId } from "../../interpreter/store/flow-id";
import { revisionOf } from "../../interpreter/store/revision";
import {
  type ChangeToken,
  type FlowStore,
  type StoreBatch,
  type StoredFlow,
  type StoredFlowInfo,
  StoreLockedError,
} from "../../interpreter/store/store";
import { compareCodePoints } from "../../stdlib/values/strings";
import { errorCode, fsyncDirectory, unlinkIfPresent, unwritableError, writeTemporary } from "./fs-util";
import {
  acquireLock,
  clearAbandonedBreak,
  DEFAULT_LOCK_TIMINGS,
  type HeldLock,
  type LockTimings,
  ownerGone,
  releaseLock,
} from "./lock";
import { pidAlive } from "./process-identity";

export interface FileStoreOptions {
  /** Lock timings (§14.3 defaults); tests shorten them or inject a clock. */
  readonly lock?: Partial<LockTimings>;
}

const FLOW_FILE = ".json";
/**
 * `<id>.json.tmp-<pid>-<random>`, `<id>.json.lock`, `<id>.json.lock.new-<pid>-<random>` (a lock
 * being created), `<id>.json.lock.break` and `<id>.json.lock.break.stale-<pid>-<random>` (lock.ts),
 * `<id>.json.lock.stale-<pid>-<random>` (older versions).
 */
const LEFTOVER = /\.json\.(?:tmp-[^/]*|lock|lock\.break|(?:lock|lock\.break)\.(?:stale|new)-[^/]*)$/;
/** A temporary file (a flow text or a lock being created): the flow id and the writer's pid. */
const TEMPORARY = /^(.+)\.json\.(?:tmp|lock\.new|lock\.break\.new)-([1-9][0-9]*)-[^/]*$/;

export class FileFlowStore implements FlowStore {
  /** `$STRATUM_HOME/flows`, created by the first commit. */
  readonly flowsDir: string;
  private readonly timings: LockTimings;

  constructor(stratumHome: string, options: FileStoreOptions = {}) {
    this.flowsDir = join(stratumHome, "flows");
    this.timings = { ...DEFAULT_LOCK_TIMINGS, ...options.lock };
    try {
      this.removeDeadTemporaries(null);
    } catch {
      // best effort: an unreadable store fails later, on the call that needs it, with its reason
    }
  }

  locate(flowId: string): string {
    return isSafeFlowId(flowId) ? this.flowPath(flowId) : join(this.flowsDir, flowId);
  }

  /** The file of a flow; only for safe ids, so no id reaches outside `flows/`. */
  flowPath(flowId: string): string {
    assertSafeFlowId(flowId);
    return join(this.flowsDir, flowId + FLOW_FILE);
  }

  async read(flowId: string): Promise<StoredFlow | null> {
    if (!isSafeFlowId(flowId)) return null;
    this.cleanAfterDeadWriter(flowId);
    let fd: number;
    try {
      fd = fs.openSync(this.flowPath(flowId), "r");
    } catch (e) {
      if (isAbsent(e)) return null;
      throw e;
    }
    try {
      // Text and token from the same open file, so they agree even if a rename happens meanwhile.
      const text = fs.readFileSync(fd, "utf8");
      const token = tokenOf(fs.fstatSync(fd, { bigint: true }));
      return { text, revision: revisionOf(text) ?? 0, token };
    } catch (e) {
      if (isAbsent(e)) return null;
      throw e;
    } finally {
      fs.closeSync(fd);
    }
  }

  async token(flowId: string): Promise<ChangeToken | null> {
    if (!isSafeFlowId(flowId)) return null;
    const stat = fs.statSync(this.flowPath(flowId), { bigint: true, throwIfNoEntry: false });
    return stat === undefined || !stat.isFile() ? null : tokenOf(stat);
  }

  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    const ids = batchFlowIds(batch);
    ids.forEach(assertSafeFlowId);
    const held: HeldLock[] = [];
    try {
      this.makeFlowsDir();
      for (const id of ids) {
        const lock = await acquireLock(this.lockPath(id), this.timings);
        if (lock === null) throw new StoreLockedError(id);
        held.push(lock);
        if (lock.tookOver) this.removeDeadTemporaries(id);
      }
      checkRevisions(batch, (id) => this.storedRevision(id));
      this.publish(batch);
      const tokens = new Map<string, ChangeToken>();
      for (const w of batch.writes) {
        tokens.set(w.flowId, tokenOf(fs.statSync(this.flowPath(w.flowId), { bigint: true })));
      }
      return tokens;
    } catch (e) {
      throw unwritableError(e, this.flowsDir) ?? e;
    } finally {
      for (const lock of held) {
        try {
          releaseLock(lock);
        } catch {
          // a lock we cannot remove (the store became unwritable) is taken over once we are gone
        }
      }
    }
  }

  async list(): Promise<readonly StoredFlowInfo[]> {
    const names = this.flowFileNames();
    const out: StoredFlowInfo[] = [];
    for (const name of names.sort(compareCodePoints)) {
      if (!name.endsWith(FLOW_FILE)) continue; // locks, temporary files, anything else
      const flowId = name.slice(0, -FLOW_FILE.length);
      if (!isSafeFlowId(flowId)) continue;
      const stat = fs.statSync(join(this.flowsDir, name), { throwIfNoEntry: false });
      if (stat?.isFile()) out.push({ flowId, modifiedMs: stat.mtimeMs });
    }
    return out;
  }

  async remove(flowId: string): Promise<boolean> {
    if (!isSafeFlowId(flowId) || !fs.existsSync(this.flowPath(flowId))) return false;
    let lock: HeldLock | null = null;
    try {
      lock = await acquireLock(this.lockPath(flowId), this.timings);
      if (lock === null) throw new StoreLockedError(flowId);
      if (lock.tookOver) this.removeDeadTemporaries(flowId);
      const removed = unlinkIfPresent(this.flowPath(flowId));
      if (removed) fsyncDirectory(this.flowsDir);
      return removed;
    } catch (e) {
      throw unwritableError(e, this.flowsDir) ?? e;
    } finally {
      if (lock !== null) releaseLock(lock);
    }
  }

  /**
   * Removes what crashed writers left behind: temporary files, set-aside and abandoned locks older
   * than the stale-lock age (§14.3: 30 s). Returns how many files it removed. For `flows prune`;
   * the store works without it (leftovers are never read), they only take space.
   */
  async removeLeftovers(): Promise<number> {
    const names = this.flowFileNames();
    const now = this.timings.now();
    let removed = 0;
    for (const name of names) {
      if (!LEFTOVER.test(name)) continue;
      const path = join(this.flowsDir, name);
      const stat = fs.statSync(path, { throwIfNoEntry: false });
      if (stat?.isFile() && now - stat.mtimeMs > this.timings.staleMs && unlinkIfPresent(path)) removed += 1;
    }
    return removed;
  }

  private lockPath(flowId: string): string {
    return `${this.flowPath(flowId)}.lock`;
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
      const lock = fs.readFileSync(this.lockPath(flowId), "utf8");
      if (ownerGone(lock)) this.removeDeadTemporaries(flowId);
    } catch {
      // no lock (ENOENT), or a store we cannot read: the read itself reports that
    }
  }

  /** The names in the flows folder; none while the folder does not exist yet. */
  private flowFileNames(): string[] {
    try {
      return fs.readdirSync(this.flowsDir);
    } catch (e) {
      if (isAbsent(e)) return [];
      throw e;
    }
  }

  /**
   * Removes the temporary files (of one flow, or of all) whose writer is dead on this host. A
   * temporary file exists only while its writer holds the flow's lock, so one is also kept while
   * the flow's lock has an owner not known to be gone (a writer on another host sharing the store,
   * whose pid means nothing here). Returns how many it removed.
   */
  private removeDeadTemporaries(flowId: string | null): number {
    const names = this.flowFileNames();
    let removed = 0;
    for (const name of names) {
      if (flowId === null && name.endsWith(".json.lock.break")) {
        if (clearAbandonedBreak(join(this.flowsDir, name.slice(0, -".break".length)), this.timings))
          removed += 1;
        continue;
      }
      const m = TEMPORARY.exec(name);
      if (m === null || (flowId !== null && m[1] !== flowId)) continue;
      const pid = Number(m[2]);
      if (pid === process.pid || pidAlive(pid)) continue;
      let lock: string | null = null;
      try {
        lock = fs.readFileSync(join(this.flowsDir, `${m[1]}.json.lock`), "utf8");
      } catch {
        lock = null;
      }
      if (lock !== null && !ownerGone(lock) && this.lockHolderIsOther(lock)) continue;
      if (unlinkIfPresent(join(this.flowsDir, name))) removed += 1;
    }
    return removed;
  }

  /** A lock content that is not one this process holds (our own lock during a takeover cleanup). */
  private lockHolderIsOther(lock: string): boolean {
    return !lock.startsWith(`${process.pid} `);
  }

  /** The revision in the flow's file; null when there is no file (an unreadable file counts as 0). */
  private storedRevision(flowId: string): number | null {
    try {
      return revisionOf(fs.readFileSync(this.flowPath(flowId), "utf8")) ?? 0;
    } catch (e) {
      if (isAbsent(e)) return null;
      throw e;
    }
  }

  /**
   * Writes every new text to a flushed temporary file first (a failure there changes nothing),
   * then renames them into place in batch order (children before parents) and deletes.
   */
  private publish(batch: StoreBatch): void {
    const staged: { readonly tmp: string; readonly path: string }[] = [];
    try {
      for (const w of batch.writes) {
        const path = this.flowPath(w.flowId);
        staged.push({ tmp: writeTemporary(path, w.text), path });
      }
      while (staged.length > 0) {
        const next = staged[0]!;
        fs.renameSync(next.tmp, next.path);
        staged.shift();
      }
    } finally {
      for (const { tmp } of staged) unlinkIfPresent(tmp);
    }
    for (const d of batch.deletes) unlinkIfPresent(this.flowPath(d.flowId));
    fsyncDirectory(this.flowsDir);
  }
}

/** `mtimeNs:size:ino`: changes with every rename over the file (new inode) and every edit. */
function tokenOf(stat: fs.BigIntStats): ChangeToken {
  return `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
}

function isAbsent(e: unknown): boolean {
  const code = errorCode(e);
  return code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR";
}

export { stratumHome } from "./stratum-home";
