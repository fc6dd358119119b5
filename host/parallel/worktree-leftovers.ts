// Worktrees left by a server that died (docs/reference/runtime.md §23.10): a server killed while its agents
// ran never removed their worktrees. At the next start of a server with the same worktree root,
// each worktree whose owner marker (worktree.ts) names a process of this host that is certainly
// gone — or, without a marker (an older version's), whose flow has no live executor owner record —
// is moved aside at once, then deleted and pruned from its repository in the background. A marker
// of a live process, of another host, or that cannot be read keeps its worktree: servers on other
// hosts, or with another store, may share the root.
import { randomBytes } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isSafeFlowId } from "../../interpreter/index";
import { errorCode, unlinkIfPresent } from "../file-store/fs-util";
import { ownerGone } from "../file-store/lock";
import { pidAlive } from "../file-store/process-identity";
import { createExecutorOwners } from "./executor-owners";
import { runGit } from "./git";
import { DEFAULT_WORKTREE_TIMINGS, ownerMarkerPath, removeIfEmpty, type WorktreeTimings } from "./worktree";

/** `<root>/.leftover-<pid>-<random>`: a worktree moved aside, being deleted by process `<pid>`. */
const LEFTOVER = /^\.leftover-([1-9][0-9]*)-[0-9a-f]+$/;

export interface LeftoverOptions {
  /** The executor owner records (executor-owners.ts), judging worktrees without a marker. */
  readonly ownersDir?: string;
  readonly timings?: WorktreeTimings;
}

interface Claimed {
  /** Where it was moved to. */
  readonly path: string;
  /** Its git administrative directory, read before the move (a relative link depends on the place). */
  readonly gitdir: string | null;
}

/**
 * Moves the dead servers' worktrees aside now (synchronously, before this server creates any), and
 * returns a promise of their deletion and the repositories' prune: how many were removed. Never
 * rejects.
 */
export function removeDeadWorktrees(root: string, options: LeftoverOptions = {}): Promise<number> {
  let claimed: Claimed[];
  try {
    claimed = claimLeftovers(root, options.ownersDir);
  } catch {
    return Promise.resolve(0);
  }
  return purge(claimed, options.timings ?? DEFAULT_WORKTREE_TIMINGS).catch(() => 0);
}

function claimLeftovers(root: string, ownersDir: string | undefined): Claimed[] {
  const claimed: Claimed[] = [];
  const owners = ownersDir === undefined ? null : createExecutorOwners(ownersDir);
  for (const name of list(root)) {
    const path = join(root, name);
    const aside = LEFTOVER.exec(name);
    if (aside !== null) {
      // An earlier server died while deleting it.
      if (!pidAlive(Number(aside[1]))) moveAside(root, path, gitdirOf(path), claimed);
      continue;
    }
    if (!isSafeFlowId(name) || !isRealDirectory(path)) continue;
    const flowOwnerGone = (): boolean => {
      const state = owners?.state(name);
      return state === "none" || state === "gone";
    };
    const entries = list(path);
    for (const task of entries) {
      const worktree = join(path, task);
      if (!isSafeFlowId(task) || !isRealDirectory(worktree)) continue;
      const marker = readText(ownerMarkerPath(worktree));
      const gone = marker === null ? flowOwnerGone() : ownerGone(marker);
      if (!gone) continue;
      moveAside(root, worktree, gitdirOf(worktree), claimed);
      unlinkQuietly(ownerMarkerPath(worktree));
    }
    // Markers of worktrees that were never created (the server died during `git worktree add`).
    for (const entry of entries) {
      const task = /^\.(.+)\.owner$/.exec(entry)?.[1];
      if (task === undefined || !isSafeFlowId(task) || isRealDirectory(join(path, task))) continue;
      const marker = readText(join(path, entry));
      if (marker !== null && ownerGone(marker)) unlinkQuietly(join(path, entry));
    }
    removeIfEmpty(path);
  }
  return claimed;
}

function moveAside(root: string, path: string, gitdir: string | null, claimed: Claimed[]): void {
  const target = join(root, `.leftover-${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    renameSync(path, target);
  } catch {
    // Another server took it first, or it is already gone.
    return;
  }
  claimed.push({ path: target, gitdir });
}

async function purge(claimed: readonly Claimed[], timings: WorktreeTimings): Promise<number> {
  const repositories = new Set<string>();
  let removed = 0;
  for (const item of claimed) {
    try {
      await rm(item.path, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Left for a later start (its name says that this process, by then dead, was deleting it).
      continue;
    }
    const common = item.gitdir === null ? null : commonDir(item.gitdir);
    if (common !== null) repositories.add(common);
  }
  for (const common of repositories) {
    // Drops the administrative entries of worktrees that no longer exist; runs no hook.
    await runGit(["-c", "core.hooksPath=/dev/null", "worktree", "prune"], {
      cwd: common,
      timeoutMs: timings.gitTimeoutMs,
    });
  }
  return removed;
}

/** The `gitdir:` a linked worktree's `.git` file names (absolute), or null. */
function gitdirOf(worktree: string): string | null {
  const text = readText(join(worktree, ".git"));
  const m = text === null ? null : /^gitdir: (.+)$/m.exec(text);
  if (m?.[1] === undefined) return null;
  const dir = m[1].trim();
  return isAbsolute(dir) ? dir : resolve(worktree, dir);
}

/**
 * The repository's common git directory from a worktree's administrative directory
 * (`<common>/worktrees/<name>`, whose `commondir` file links back); null when it is not one.
 */
function commonDir(gitdir: string): string | null {
  const link = readText(join(gitdir, "commondir"))?.trim();
  const common = link === undefined || link === "" ? dirname(dirname(gitdir)) : resolve(gitdir, link);
  return isDirectory(common) && isDirectory(join(common, "worktrees")) ? common : null;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (e) {
    const code = errorCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw e;
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A directory, not a symbolic link to one (an agent may plant links; they are never followed). */
function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkIfPresent(path);
  } catch {
    // Best effort.
  }
}
