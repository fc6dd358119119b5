// Per-flow lock files (runtime.md §14.3 step 1): `<id>.json.lock` taken by exclusive creation,
// retried every 10 ms for up to 2 s; a lock older than 30 s is stale (its holder died) and is
// removed. Timings, clock and sleep are injectable so tests need not wait.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { errorCode, unlinkIfPresent } from "./fs-util";

export interface LockTimings {
  /** How long to keep trying before giving up (§14.3: 2 s). */
  readonly timeoutMs: number;
  /** Pause between attempts (§14.3: 10 ms). */
  readonly retryMs: number;
  /** Age (by the lock file's modification time) from which a lock is stale (§14.3: 30 s). */
  readonly staleMs: number;
  /** Wall-clock ms since the epoch (compared with file modification times). */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_LOCK_TIMINGS: LockTimings = {
  timeoutMs: 2000,
  retryMs: 10,
  staleMs: 30_000,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A lock this process holds; its file holds `content` (pid and a random tag), which identifies it. */
export interface HeldLock {
  readonly path: string;
  readonly content: string;
}

/** Takes the lock, or resolves to null when it stayed held by someone else for `timeoutMs`. */
export async function acquireLock(path: string, timings: LockTimings): Promise<HeldLock | null> {
  const deadline = timings.now() + timings.timeoutMs;
  for (;;) {
    const held = tryCreate(path);
    if (held !== null) return held;
    if (removeIfStale(path, timings)) continue;
    if (timings.now() >= deadline) return null;
    await timings.sleep(timings.retryMs);
  }
}

/**
 * Removes the lock if it is still ours: after 30 s another process may have broken it and taken
 * its own. Compared by content, not inode: a new file often reuses a just-freed inode number.
 */
export function releaseLock(lock: HeldLock): void {
  if (readIfPresent(lock.path) === lock.content) unlinkIfPresent(lock.path);
}

function tryCreate(path: string): HeldLock | null {
  let fd: number;
  try {
    fd = fs.openSync(path, "wx");
  } catch (e) {
    if (errorCode(e) === "EEXIST") return null;
    throw e;
  }
  try {
    const content = `${process.pid} ${randomBytes(8).toString("hex")}\n`;
    fs.writeSync(fd, content);
    return { path, content };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Removes the lock if it is stale; true when the caller should try again at once (removed, or
 * already gone). Moving it aside first (rename is atomic) and checking that the moved file is the
 * stale one keeps two processes breaking the same stale lock from also breaking a fresh lock one
 * of them took in between; if that happened, the fresh lock is put back.
 */
function removeIfStale(path: string, timings: LockTimings): boolean {
  const seen = fs.statSync(path, { throwIfNoEntry: false });
  if (seen === undefined) return true;
  if (timings.now() - seen.mtimeMs <= timings.staleMs) return false;
  const staleContent = readIfPresent(path);
  if (staleContent === null) return true;
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    fs.renameSync(path, aside);
  } catch (e) {
    if (errorCode(e) === "ENOENT") return true;
    throw e;
  }
  if (readIfPresent(aside) !== staleContent) {
    try {
      fs.linkSync(aside, path); // exclusive: fails if yet another lock appeared meanwhile
    } catch (e) {
      if (errorCode(e) !== "EEXIST") throw e;
    }
  }
  unlinkIfPresent(aside);
  return true;
}

function readIfPresent(path: string): string | null {
  try {
    return fs.readFileSync(path, "utf8");
  } catch (e) {
    if (errorCode(e) === "ENOENT") return null;
    throw e;
  }
}
