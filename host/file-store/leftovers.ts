// What crashed writers leave in `flows/` (the file store's housekeeping): temporary files of dead
// writers, set-aside and abandoned locks, and journals whose snapshot is gone. None of them is ever
// read as a flow; they only take space.
import * as fs from "node:fs";
import { join } from "node:path";
import { isSafeFlowId } from "../../interpreter/index";
import { unlinkIfPresent } from "./fs-util";
import { clearAbandonedBreak, type LockTimings, ownerGone, readLock } from "./lock";
import { pidAlive } from "./process-identity";

/**
 * `<id>.json.tmp-<pid>-<random>`, `<id>.json.lock`, `<id>.json.lock.new-<pid>-<random>` (a lock
 * being created), `<id>.json.lock.break` and `<id>.json.lock.break.stale-<pid>-<random>` (lock.ts),
 * `<id>.json.lock.stale-<pid>-<random>` (older versions).
 */
const LEFTOVER = /\.json\.(?:tmp-[^/]*|lock|lock\.break|(?:lock|lock\.break)\.(?:stale|new)-[^/]*)$/;
/** A temporary file (a flow text or a lock being created): the flow id and the writer's pid. */
const TEMPORARY = /^(.+)\.json\.(?:tmp|lock\.new|lock\.break\.new)-([1-9][0-9]*)-[^/]*$/;
const JOURNAL = ".journal";

/** The names in the flows folder; none while the folder does not exist yet. */
export function flowDirNames(flowsDir: string): string[] {
  try {
    return fs.readdirSync(flowsDir);
  } catch (e) {
    const code = e instanceof Error && "code" in e ? e.code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw e;
  }
}

/**
 * Removes leftovers older than the stale-lock age (docs/reference/runtime.md §14.3: 30 s): temporary files, locks nobody
 * holds, and journals without a snapshot. Returns how many files it removed.
 */
export function removeOldLeftovers(flowsDir: string, timings: LockTimings): number {
  const names = flowDirNames(flowsDir);
  const present = new Set(names);
  const now = timings.now();
  let removed = 0;
  for (const name of names) {
    const orphanJournal =
      name.endsWith(JOURNAL) &&
      isSafeFlowId(name.slice(0, -JOURNAL.length)) &&
      !present.has(`${name.slice(0, -JOURNAL.length)}.json`);
    if (!orphanJournal && !LEFTOVER.test(name)) continue;
    const path = join(flowsDir, name);
    const stat = fs.lstatSync(path, { throwIfNoEntry: false }); // a lock is a symbolic link
    if (
      (stat?.isFile() || stat?.isSymbolicLink()) &&
      now - stat.mtimeMs > timings.staleMs &&
      unlinkIfPresent(path)
    )
      removed += 1;
  }
  return removed;
}

/**
 * Removes the temporary files (of one flow, or of all) whose writer is dead on this host. A
 * temporary file exists only while its writer holds the flow's lock, so one is also kept while
 * the flow's lock has an owner not known to be gone (a writer on another host sharing the store,
 * whose pid means nothing here). Without a flow id, also clears abandoned break locks.
 */
export function removeDeadTemporaries(flowsDir: string, flowId: string | null, timings: LockTimings): number {
  let removed = 0;
  for (const name of flowDirNames(flowsDir)) {
    if (flowId === null && name.endsWith(".json.lock.break")) {
      if (clearAbandonedBreak(join(flowsDir, name.slice(0, -".break".length)), timings)) removed += 1;
      continue;
    }
    const m = TEMPORARY.exec(name);
    if (m === null || (flowId !== null && m[1] !== flowId)) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || pidAlive(pid)) continue;
    let lock: string | null = null;
    try {
      lock = readLock(join(flowsDir, `${m[1]}.json.lock`));
    } catch {
      lock = null;
    }
    // Our own lock during a takeover cleanup is no reason to keep the file.
    const heldByOther = lock !== null && !ownerGone(lock) && !lock.startsWith(`${process.pid} `);
    if (heldByOther) continue;
    if (unlinkIfPresent(join(flowsDir, name))) removed += 1;
  }
  return removed;
}
