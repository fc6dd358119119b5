// Git worktrees for server-side parallel tasks with `isolation: worktree` (docs/reference/runtime.md §23.10):
// one detached worktree per task at `<root>/<flow_id>/<task_id>` (root: `$STRATUM_HOME/worktrees`),
// its diff captured after the task, then removed. Follows the reference's worktree.py, with its
// fixes (DIV-PARALLEL-WORKTREES): every git command runs in the flow's directory, a failed removal
// is pruned, the empty per-flow directory goes, and ids never escape the root. Beside each worktree
// an owner marker names the server process that made it, so that the worktrees of a server that
// died are recognised and removed at the next start (worktree-leftovers.ts).
import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { isSafeFlowId } from "../../interpreter/index";
import { repr } from "../../stdlib/index";
import { unlinkIfPresent } from "../file-store/fs-util";
import { lockContent } from "../file-store/lock";
import { DEFAULT_GIT_MAX_BYTES, type GitEnding, type GitRun, runGit } from "./git";

/**
 * `git worktree add`, `remove` and `prune` of one repository run one at a time in this process:
 * git reads every worktree's administrative directory while adding one, and a sibling's directory
 * still being written fails the add ("failed to read .git/worktrees/<t>/commondir").
 */
const repoQueues = new Map<string, Promise<unknown>>();

function serialized<T>(repoCwd: string, fn: () => Promise<T>): Promise<T> {
  const before = repoQueues.get(repoCwd) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  repoQueues.set(repoCwd, tail);
  void tail.then(() => {
    if (repoQueues.get(repoCwd) === tail) repoQueues.delete(repoCwd);
  });
  return run;
}

/** A worktree could not be set up; the task fails with `worktree setup failed: <message>`. */
export class WorktreeError extends Error {
  override readonly name = "WorktreeError";
}

export interface WorktreeTimings {
  /** Per git command (the reference's 30 s). */
  readonly gitTimeoutMs: number;
}

export const DEFAULT_WORKTREE_TIMINGS: WorktreeTimings = { gitTimeoutMs: 30_000 };

/**
 * Where a task's worktree goes. Ids are user data, so they must be safe file-name components (the
 * rule for flow ids: no separator, no leading dot, not empty, no NUL, at most 128 characters);
 * anything else is refused, never sanitised, so two ids can never share a directory.
 */
export function worktreePath(root: string, flowId: string, taskId: string): string {
  if (!isSafeFlowId(flowId)) throw new WorktreeError(`unsafe flow id ${repr(flowId)}`);
  if (!isSafeFlowId(taskId)) throw new WorktreeError(`unsafe task id ${repr(taskId)}`);
  const path = join(root, flowId, taskId);
  const rel = relative(root, path);
  // Cannot happen after the checks above; kept so that no future id rule can open an escape.
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) {
    throw new WorktreeError(`unsafe task id ${repr(taskId)}`);
  }
  return path;
}

/**
 * The owner marker of the worktree at `path`: `<root>/<flow_id>/.<task_id>.owner`, holding the
 * creating process's identity as a lock file does (pid, start time, host). A task id never starts
 * with a dot, so a marker is never taken for a worktree.
 */
export function ownerMarkerPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.owner`);
}

/**
 * Creates the task's worktree: `git worktree add --detach <dir> HEAD` run in `repoCwd`, so the task
 * starts from the committed HEAD of the repository containing it, without uncommitted changes. A
 * leftover worktree at the same place (a crashed server) is removed first. Throws WorktreeError.
 */
export async function createWorktree(
  root: string,
  flowId: string,
  taskId: string,
  repoCwd: string,
  signal?: AbortSignal,
  timings: WorktreeTimings = DEFAULT_WORKTREE_TIMINGS,
): Promise<string> {
  const target = worktreePath(root, flowId, taskId);
  if (existsSync(target)) await removeWorktree(repoCwd, target, timings);
  try {
    mkdirSync(dirname(target), { recursive: true });
    // Before the worktree exists: a worktree without a marker is never one being created.
    writeFileSync(ownerMarkerPath(target), `${lockContent()}\n`);
  } catch (e) {
    throw new WorktreeError(`cannot create ${dirname(target)}: ${(e as Error).message}`);
  }
  const run = await serialized(repoCwd, () =>
    runGit(["worktree", "add", "--detach", target, "HEAD"], {
      cwd: repoCwd,
      timeoutMs: timings.gitTimeoutMs,
      signal,
    }),
  );
  if (run.ending.kind === "ok") return target;
  // Whatever git managed to create before it stopped goes again.
  if (existsSync(target)) await removeWorktree(repoCwd, target, timings);
  else {
    dropMarker(target);
    removeIfEmpty(dirname(target));
  }
  throw new WorktreeError(addFailure(run, timings));
}

function addFailure(run: GitRun, timings: WorktreeTimings): string {
  const e = run.ending;
  switch (e.kind) {
    case "timeout":
      return `git worktree add timed out after ${seconds(timings.gitTimeoutMs)}s`;
    case "aborted":
      return "git worktree add cancelled";
    case "not-started":
      return `git worktree add failed: ${e.reason}`;
    case "signal":
      return `git worktree add failed: killed by ${e.signal}`;
    default:
      return `git worktree add failed: ${run.stderr}`;
  }
}

/**
 * Removes a worktree: `git -C <repoCwd> worktree remove --force <path>`; if git refuses, the
 * directory is deleted and `git worktree prune` drops the stale entry. Then its owner marker goes,
 * and the per-flow directory when empty. Never throws.
 */
export async function removeWorktree(
  repoCwd: string,
  path: string,
  timings: WorktreeTimings = DEFAULT_WORKTREE_TIMINGS,
): Promise<void> {
  if (existsSync(path)) {
    const git = { cwd: repoCwd, timeoutMs: timings.gitTimeoutMs };
    const removed = await serialized(repoCwd, () => runGit(["worktree", "remove", "--force", path], git));
    if (removed.ending.kind !== "ok") {
      try {
        rmSync(path, { recursive: true, force: true });
      } catch {
        // Best effort, like the reference's rmtree(ignore_errors=True).
      }
      await serialized(repoCwd, () => runGit(["worktree", "prune"], git));
    }
  }
  dropMarker(path);
  removeIfEmpty(dirname(path));
}

function dropMarker(path: string): void {
  try {
    unlinkIfPresent(ownerMarkerPath(path));
  } catch {
    // Best effort: a marker left behind names a dead process and goes at a later start.
  }
}

export function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (a sibling task's worktree) or already gone.
  }
}

export interface DiffCapture {
  /** The staged diff against HEAD ("" when nothing changed); null when the capture failed. */
  readonly diff: string | null;
  readonly diffError: string | null;
}

export interface DiffOptions {
  readonly signal?: AbortSignal;
  /** Bound on the diff's size in bytes (the reference has none); default 16 MiB. */
  readonly maxBytes?: number;
  readonly timings?: WorktreeTimings;
}

const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"] as const;

/**
 * The worktree's changes against HEAD, untracked files included, ignored files not:
 * `git add -A` then `git diff --cached HEAD`, hooks disabled, 30 s each. Never throws: a failure
 * gives `diff: null` and the reference's `diff_error` text (`<error kind>: <text>`, plus
 * ` | stderr: <stderr>` when there is some).
 */
export async function captureWorktreeDiff(path: string, options: DiffOptions = {}): Promise<DiffCapture> {
  const timings = options.timings ?? DEFAULT_WORKTREE_TIMINGS;
  const git = {
    cwd: path,
    timeoutMs: timings.gitTimeoutMs,
    signal: options.signal,
    maxBytes: options.maxBytes,
  };
  const add = [...NO_HOOKS, "add", "-A"];
  const staged = await runGit(add, git);
  if (staged.ending.kind !== "ok") return failed(add, staged, timings, options.maxBytes);
  const diffArgs = [...NO_HOOKS, "diff", "--cached", "HEAD"];
  const diff = await runGit(diffArgs, git);
  if (diff.ending.kind !== "ok") return failed(diffArgs, diff, timings, options.maxBytes);
  // Buffer.toString replaces invalid UTF-8 with U+FFFD, like decode(errors="replace").
  return { diff: diff.stdout.toString("utf8"), diffError: null };
}

function failed(
  args: readonly string[],
  run: GitRun,
  timings: WorktreeTimings,
  maxBytes?: number,
): DiffCapture {
  const text = diffErrorText(["git", ...args], run.ending, timings, maxBytes);
  if (text === null) return { diff: null, diffError: "cancelled during diff capture" };
  return { diff: null, diffError: text + (run.stderr === "" ? "" : ` | stderr: ${run.stderr}`) };
}

/** The reference's `f"{type(exc).__name__}: {exc}"` for subprocess errors; null for a cancellation. */
function diffErrorText(
  argv: readonly string[],
  ending: GitEnding,
  timings: WorktreeTimings,
  maxBytes: number | undefined,
): string | null {
  const cmd = `Command '${repr([...argv])}'`;
  switch (ending.kind) {
    case "aborted":
      return null;
    case "exit":
      return `CalledProcessError: ${cmd} returned non-zero exit status ${ending.code}.`;
    case "signal":
      return `CalledProcessError: ${cmd} died with ${ending.signal}.`;
    case "timeout":
      return `TimeoutExpired: ${cmd} timed out after ${seconds(timings.gitTimeoutMs)} seconds`;
    case "too-large":
      return `DiffTooLarge: ${cmd} printed more than ${maxBytes ?? DEFAULT_GIT_MAX_BYTES} bytes`;
    case "not-started":
      return `FileNotFoundError: ${ending.reason}`;
    case "ok":
      return "";
  }
}

function seconds(ms: number): string {
  return String(ms / 1000);
}
