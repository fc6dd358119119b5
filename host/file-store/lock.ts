// Per-flow locks (docs/reference/runtime.md §14.3 step 1): `<id>.json.lock` taken by exclusive creation,
// retried every 10 ms for up to 2 s. The lock records its owner (pid, process start time, host),
// so a waiter on the same host takes over at once a lock whose owner is gone: the pid is
// not alive, or it is alive but started at another time (the pid was reused). A lock of another
// host, or without a start time (not Linux, or written by an older version), is stale only by age
// (older than 30 s), as any lock is after 30 s. Timings, clock and sleep are injectable so tests need not wait.
//
// A lock is a symbolic link whose target is its content (`ln -s`, as Emacs and Mercurial lock):
// one system call creates it exclusively with its owner inside, so no process ever sees a lock
// without its owner, and releasing it is a `readlink` and an `unlink` — ~35 µs where a regular
// file written aside and hard-linked into place took ~145 µs (measures every durable call
// against one fsync). Where symbolic links are not supported the lock is that regular file;
// readers accept both, so locks of older versions are understood.
//
// Takeover protocol: a lock file is only ever removed by its owner (release) or by a waiter that
// holds the lock's break lock `<id>.json.lock.break` (exclusive creation, held for microseconds).
// Holding the break lock, the waiter reads the lock again and removes it only if it still has
// the dead owner's content (pid and random tag). Nobody else can remove or replace the lock file
// meanwhile (other breakers wait for the break lock; creators need the path to be free; the dead
// owner cannot release), so the file removed is the one found dead, never a fresh lock another
// waiter took in between. After the removal every waiter competes by exclusive creation again:
// exactly one wins. A break lock whose own owner died (killed inside a takeover, a window of a
// few system calls) is removed the same way as a lock, by age or dead owner, by renaming it aside
// and checking what was moved.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { hostname } from "node:os";
import { errorCode, unlinkIfPresent } from "./fs-util";
import { ownProcess, type ProcessIdentity, processGone } from "./process-identity";

export interface LockTimings {
  /** How long to keep trying before giving up (docs/reference/runtime.md §14.3: 2 s). */
  readonly timeoutMs: number;
  /** Pause between attempts (docs/reference/runtime.md §14.3: 10 ms). */
  readonly retryMs: number;
  /** Age (by the lock file's modification time) from which a lock is stale (docs/reference/runtime.md §14.3: 30 s). */
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

/** A lock this process holds; its file holds `content` (owner and a random tag), which identifies it. */
export interface HeldLock {
  readonly path: string;
  readonly content: string;
  /** True when the lock was taken over from a dead owner (its writes may have left temporary files). */
  readonly tookOver: boolean;
}

/** What a lock file says about its owner: `<pid> <tag> <start time or -> <host>`. */
export interface LockOwner extends ProcessIdentity {
  readonly host: string | null;
}

/** This process's part of its lock tags: random, so a reused pid never makes the same tag. */
const TAG_PREFIX = randomBytes(6).toString("hex");
let tagCount = 0;

/** The content of a lock written by this process (a fresh tag each time). */
export function lockContent(owner: ProcessIdentity = ownProcess(), host: string = hostname()): string {
  tagCount += 1;
  return `${owner.pid} ${TAG_PREFIX}${tagCount.toString(16)} ${owner.startTime ?? "-"} ${host}`;
}

/** Parses a lock file's content; null for anything unreadable (then only its age counts). */
export function parseLockOwner(content: string): LockOwner | null {
  const [pid, , start, host] = content.trim().split(" ");
  if (pid === undefined || !/^[1-9][0-9]*$/.test(pid)) return null;
  return {
    pid: Number(pid),
    startTime: start !== undefined && /^[0-9]+$/.test(start) ? start : null,
    host: host === undefined || host === "" ? null : host,
  };
}

/** Whether the owner recorded in a lock file is certainly gone: on this host, and dead or replaced. */
export function ownerGone(content: string): boolean {
  const owner = parseLockOwner(content);
  if (owner === null || owner.host !== hostname()) return false;
  return processGone(owner);
}

/** Takes the lock, or resolves to null when it stayed held by someone else for `timeoutMs`. */
export async function acquireLock(path: string, timings: LockTimings): Promise<HeldLock | null> {
  const deadline = timings.now() + timings.timeoutMs;
  let tookOver = false;
  for (;;) {
    const held = tryCreate(path, tookOver);
    if (held !== null) return held;
    const broken = breakIfAbandoned(path, timings);
    if (broken !== "held") {
      if (broken === "broken") tookOver = true;
      continue;
    }
    if (timings.now() >= deadline) return null;
    await timings.sleep(timings.retryMs);
  }
}

/**
 * Removes the lock if it is still ours: after 30 s another host may have broken it and taken its
 * own. Compared by content, not inode: a new file often reuses a just-freed inode number.
 */
export function releaseLock(lock: HeldLock): void {
  if (readLock(lock.path) === lock.content) unlinkIfPresent(lock.path);
}

/** Whether the lock's path still holds this lock (false when it cannot be read). */
export function stillHeld(lock: HeldLock): boolean {
  try {
    return readLock(lock.path) === lock.content;
  } catch {
    return false;
  }
}

/** Whether this file system refused a symbolic link lock once (then locks are regular files). */
let symlinksRefused = false;

/**
 * Creates the lock with its content in one step: a symbolic link whose target is the content
 * (EEXIST when the lock exists). Where links are refused, a regular file: the content is written
 * to `<lock>.new-<pid>-<random>` first and hard-linked to the lock path, or, without hard links
 * either, created exclusively and then written.
 */
function tryCreate(path: string, tookOver: boolean): HeldLock | null {
  const content = lockContent();
  if (!symlinksRefused) {
    const created = createLinkLock(path, content, tookOver);
    if (created !== "unsupported") return created;
    symlinksRefused = true;
  }
  return createFileLock(path, content, tookOver);
}

/** The lock as a symbolic link to its content; null when it exists, "unsupported" where refused. */
export function createLinkLock(
  path: string,
  content: string,
  tookOver = false,
): HeldLock | null | "unsupported" {
  try {
    fs.symlinkSync(content, path);
    return { path, content, tookOver };
  } catch (e) {
    const code = errorCode(e);
    if (code === "EEXIST") return null;
    if (LINKS_UNSUPPORTED.has(code ?? "")) return "unsupported";
    // symlink errors name the link's target (the owner record) as `path`: name the lock instead
    if (e instanceof Error) Object.assign(e, { path, dest: undefined });
    throw e;
  }
}

const LINKS_UNSUPPORTED = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

/** The lock as a regular file holding its content (where symbolic links are refused); null when it exists. */
export function createFileLock(path: string, content: string, tookOver = false): HeldLock | null {
  const staged = `${path}.new-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    fs.writeFileSync(staged, content, { flag: "wx" });
  } catch (e) {
    try {
      unlinkIfPresent(staged);
    } catch {
      // the write failed (read-only, full): what matters is why
    }
    if (e instanceof Error) Object.assign(e, { path }); // name the lock, not the staging file
    throw e;
  }
  try {
    fs.linkSync(staged, path);
    return { path, content, tookOver };
  } catch (e) {
    const code = errorCode(e);
    if (code === "EEXIST") return null;
    if (!LINKS_UNSUPPORTED.has(code ?? "")) throw e;
  } finally {
    unlinkIfPresent(staged);
  }
  return createWithoutLink(path, content, tookOver);
}

function createWithoutLink(path: string, content: string, tookOver: boolean): HeldLock | null {
  let fd: number;
  try {
    fd = fs.openSync(path, "wx");
  } catch (e) {
    if (errorCode(e) === "EEXIST") return null;
    throw e;
  }
  try {
    fs.writeSync(fd, content);
    return { path, content, tookOver };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * "held" while the lock belongs to a live owner (or one we cannot judge and not yet 30 s old);
 * "gone" when it disappeared or another waiter is breaking it; "broken" when we removed it.
 */
function breakIfAbandoned(path: string, timings: LockTimings): "held" | "gone" | "broken" {
  const content = readLock(path);
  if (content === null) return "gone";
  if (!abandoned(path, content, timings)) return "held";
  const breakPath = `${path}.break`;
  const breaker = tryCreate(breakPath, false);
  if (breaker === null) {
    // Someone else is breaking it (or died doing so: then its break lock is removed like a lock).
    const breakContent = readLock(breakPath);
    if (breakContent !== null && abandoned(breakPath, breakContent, timings))
      removeAside(breakPath, breakContent);
    return "held";
  }
  try {
    if (readLock(path) !== content) return "gone";
    return unlinkIfPresent(path) ? "broken" : "gone";
  } finally {
    releaseLock(breaker);
  }
}

/**
 * Removes `<lock>.break` when its owner died inside a takeover (or it is older than the age limit);
 * for a store opening. True when it removed one.
 */
export function clearAbandonedBreak(lockPath: string, timings: LockTimings): boolean {
  const breakPath = `${lockPath}.break`;
  const content = readLock(breakPath);
  if (content === null || !abandoned(breakPath, content, timings)) return false;
  removeAside(breakPath, content);
  return true;
}

/** Whether a lock (or break lock) with this content may be removed: its owner is gone, or it is too old. */
function abandoned(path: string, content: string, timings: LockTimings): boolean {
  if (ownerGone(content)) return true;
  // Otherwise docs/reference/runtime.md §14.3's age rule, for every owner (a live process holding a lock for 30 s is hung).
  const seen = fs.lstatSync(path, { throwIfNoEntry: false }); // the link's own age, not its target's
  return seen !== undefined && timings.now() - seen.mtimeMs > timings.staleMs;
}

/**
 * Removes an abandoned break lock: moved aside (rename is atomic), and put back when what was
 * moved is not the file judged abandoned (a new break lock appeared meanwhile).
 */
function removeAside(path: string, content: string): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    fs.renameSync(path, aside);
  } catch (e) {
    if (errorCode(e) === "ENOENT") return;
    throw e;
  }
  if (readLock(aside) !== content) {
    try {
      fs.linkSync(aside, path); // exclusive: fails if yet another break lock appeared meanwhile
    } catch (e) {
      if (errorCode(e) !== "EEXIST") throw e;
    }
  }
  unlinkIfPresent(aside);
}

/**
 * What a lock (or break lock) says, null when there is none: a symbolic link's target, or a
 * regular lock file's text (where links are refused, or written by an older version).
 */
export function readLock(path: string): string | null {
  try {
    return fs.readlinkSync(path);
  } catch (e) {
    const code = errorCode(e);
    if (code === "ENOENT") return null;
    if (code !== "EINVAL" && code !== "UNKNOWN") throw e; // EINVAL: not a link, a lock file
  }
  try {
    return fs.readFileSync(path, "utf8");
  } catch (e) {
    if (errorCode(e) === "ENOENT") return null;
    throw e;
  }
}
