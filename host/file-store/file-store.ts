// The durable FlowStore (runtime.md §14): one file per flow, `$STRATUM_HOME/flows/<id>.json`.
// A commit locks every flow it touches (sorted order, so two commits cannot deadlock), checks
// their revisions, writes each new text to a temporary file that is flushed and renamed over the
// flow file, deletes, flushes the directory and releases the locks; a crash therefore leaves every
// flow file either old or new, never partly written.
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
import { errorCode, fsyncDirectory, unlinkIfPresent, writeTemporary } from "./fs-util";
import { acquireLock, DEFAULT_LOCK_TIMINGS, type HeldLock, type LockTimings, releaseLock } from "./lock";

export interface FileStoreOptions {
  /** Lock timings (§14.3 defaults); tests shorten them or inject a clock. */
  readonly lock?: Partial<LockTimings>;
}

const FLOW_FILE = ".json";
/** `<id>.json.tmp-<pid>-<random>`, `<id>.json.lock`, `<id>.json.lock.stale-<pid>-<random>`. */
const LEFTOVER = /\.json\.(?:tmp-[^/]*|lock|lock\.stale-[^/]*)$/;

export class FileFlowStore implements FlowStore {
  /** `$STRATUM_HOME/flows`, created by the first commit. */
  readonly flowsDir: string;
  private readonly timings: LockTimings;

  constructor(stratumHome: string, options: FileStoreOptions = {}) {
    this.flowsDir = join(stratumHome, "flows");
    this.timings = { ...DEFAULT_LOCK_TIMINGS, ...options.lock };
  }

  /** The file of a flow; only for safe ids, so no id reaches outside `flows/`. */
  flowPath(flowId: string): string {
    assertSafeFlowId(flowId);
    return join(this.flowsDir, flowId + FLOW_FILE);
  }

  async read(flowId: string): Promise<StoredFlow | null> {
    if (!isSafeFlowId(flowId)) return null;
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
    fs.mkdirSync(this.flowsDir, { recursive: true });
    const held: HeldLock[] = [];
    try {
      for (const id of ids) {
        const lock = await acquireLock(this.lockPath(id), this.timings);
        if (lock === null) throw new StoreLockedError(id);
        held.push(lock);
      }
      checkRevisions(batch, (id) => this.storedRevision(id));
      this.publish(batch);
      const tokens = new Map<string, ChangeToken>();
      for (const w of batch.writes) {
        tokens.set(w.flowId, tokenOf(fs.statSync(this.flowPath(w.flowId), { bigint: true })));
      }
      return tokens;
    } finally {
      for (const lock of held) releaseLock(lock);
    }
  }

  async list(): Promise<readonly StoredFlowInfo[]> {
    let names: string[];
    try {
      names = fs.readdirSync(this.flowsDir);
    } catch (e) {
      if (isAbsent(e)) return [];
      throw e;
    }
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
    const lock = await acquireLock(this.lockPath(flowId), this.timings);
    if (lock === null) throw new StoreLockedError(flowId);
    try {
      const removed = unlinkIfPresent(this.flowPath(flowId));
      if (removed) fsyncDirectory(this.flowsDir);
      return removed;
    } finally {
      releaseLock(lock);
    }
  }

  /**
   * Removes what crashed writers left behind: temporary files, set-aside and abandoned locks older
   * than the stale-lock age (§14.3: 30 s). Returns how many files it removed. For `flows prune`;
   * the store works without it (leftovers are never read), they only take space.
   */
  async removeLeftovers(): Promise<number> {
    let names: string[];
    try {
      names = fs.readdirSync(this.flowsDir);
    } catch (e) {
      if (isAbsent(e)) return 0;
      throw e;
    }
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
