// Runs a parallel task's `pre_merge_verify` commands in its worktree (see
// docs/reference/runtime.md §23.6), after its agent succeeded and before its diff is captured,
// as the reference's run_pre_merge_gate does: each command split into words as Python's
// shlex.split does (an unclosed quote makes the whole text one word) and run WITHOUT a shell —
// so `;`, `|`, `$(…)` and `>` are plain characters of its arguments — in the worktree, with the
// agent's least-privilege environment (agent-env.ts), no input, `timeoutSeconds` each, in its own
// process group (stopped with it on a timeout, an abort or the server's end). The first command
// that exits non-zero, cannot start or times out is the bounce. Never throws.
import { existsSync, statSync, symlinkSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import type { GateBounce } from "../../interpreter";
import { repr } from "../../stdlib";
import { unlinkIfPresent } from "../file-store/fs-util";
import { DEFAULT_PROCESS_LIMITS, type ProcessEnding, runProcess } from "./agent-process";
import { runGit } from "./git";
import { ShlexError, shlexSplit } from "./shlex-split";

/** The reference keeps the last 2,048 characters of a failing command's output. */
const EXCERPT_CHARS = 2048;
/** Bytes kept of each stream: enough for 2,048 characters of four bytes, and a cut character. */
const KEPT_BYTES = 16 * 1024;
const GIT_TIMEOUT_MS = 30_000;
const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"] as const;

export interface GateRun {
  readonly worktree: string;
  /** The flow's directory: its `node_modules`, if any, is linked into the worktree first. */
  readonly baseCwd: string;
  readonly commands: readonly string[];
  readonly timeoutSeconds: number;
  /** The agent's environment (taskEnvironment), not the server's. */
  readonly env: Readonly<Record<string, string>>;
  readonly killGraceMs?: number;
}

/** The bounce of the first failing command; null when all passed; "aborted" when `signal` stopped it. */
export async function runPreMergeGate(
  run: GateRun,
  signal: AbortSignal,
): Promise<GateBounce | null | "aborted"> {
  if (run.commands.length === 0) return null;
  const link = linkNodeModules(run.worktree, run.baseCwd);
  try {
    return await runCommands(run, signal);
  } finally {
    // The link is for the commands only: it must not become part of the task's diff.
    if (link !== null) removeLink(link);
  }
}

async function runCommands(run: GateRun, signal: AbortSignal): Promise<GateBounce | null | "aborted"> {
  for (const command of run.commands) {
    const words = wordsOf(command);
    if (words.length === 0) continue;
    const [program, ...args] = words as [string, ...string[]];
    const ending = await runProcess(
      { program, args, cwd: run.worktree, env: run.env, input: "" },
      {
        timeoutMs: run.timeoutSeconds * 1000,
        killGraceMs: run.killGraceMs ?? DEFAULT_PROCESS_LIMITS.killGraceMs,
        maxStdoutBytes: KEPT_BYTES,
        stdoutTail: true,
        maxStderrBytes: KEPT_BYTES,
      },
      signal,
    );
    if (ending.kind === "aborted") return "aborted";
    const failure = failureOf(ending, command, program, run);
    if (failure === null) continue;
    if (signal.aborted) return "aborted";
    return { command, ...failure, files: await changedFiles(run.worktree) };
  }
  return null;
}

function removeLink(path: string): void {
  try {
    unlinkIfPresent(path);
  } catch {
    // A command replaced it with a directory: left as it is, like any other change of the task.
  }
}

/** shlex.split, or the whole command as one word when it cannot be split (as the reference does). */
function wordsOf(command: string): string[] {
  try {
    return shlexSplit(command);
  } catch (e) {
    if (e instanceof ShlexError) return [command];
    throw e;
  }
}

function failureOf(
  ending: Exclude<ProcessEnding, { kind: "aborted" }>,
  command: string,
  program: string,
  run: GateRun,
): { exitCode: number | null; excerpt: string } | null {
  switch (ending.kind) {
    case "exited": {
      // Python's returncode: the exit status, or minus the signal's number.
      const code = ending.code ?? -(constants.signals[(ending.signal ?? "") as NodeJS.Signals] ?? 0);
      if (code === 0) return null;
      const sep = ending.stdout !== "" && ending.stderr !== "" ? "\n" : "";
      return { exitCode: code, excerpt: tail(ending.stdout + sep + ending.stderr) };
    }
    case "timeout":
      return {
        exitCode: null,
        excerpt: tail(`pre_merge_verify command timed out after ${run.timeoutSeconds}s: ${command}`),
      };
    case "too-large":
      // Not reached: stdout is kept as a tail, never refused.
      return { exitCode: null, excerpt: tail(`pre_merge_verify command output refused: ${command}`) };
    case "not-started":
      // Python's FileNotFoundError text; a program found but not runnable is exit 126, as in a shell.
      if (ending.code === "EACCES")
        return { exitCode: 126, excerpt: tail(`cannot run: [Errno 13] Permission denied: ${repr(program)}`) };
      if (ending.code === "ENOTDIR")
        return {
          exitCode: 127,
          excerpt: tail(`command not found: [Errno 2] No such file or directory: ${repr(run.worktree)}`),
        };
      return {
        exitCode: 127,
        excerpt: tail(`command not found: [Errno 2] No such file or directory: ${repr(program)}`),
      };
  }
}

/** The last 2,048 characters (code points, as Python counts them). */
function tail(text: string): string {
  const chars = [...text];
  return chars.length <= EXCERPT_CHARS ? text : chars.slice(-EXCERPT_CHARS).join("");
}

/** Tracked changes against HEAD, then untracked files not ignored, each once; [] when git cannot say. */
async function changedFiles(worktree: string): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const args of [
    [...NO_HOOKS, "diff", "--name-only", "HEAD"],
    [...NO_HOOKS, "ls-files", "--others", "--exclude-standard"],
  ]) {
    const r = await runGit(args, { cwd: worktree, timeoutMs: GIT_TIMEOUT_MS });
    for (const line of r.stdout.toString("utf8").split(/\r\n|\r|\n/)) {
      const f = line.trim();
      if (f !== "" && !seen.has(f)) {
        seen.add(f);
        out.push(f);
      }
    }
  }
  return out;
}

/**
 * A fresh worktree has no `node_modules` (it is not in git): the flow directory's is linked in, so
 * that `npm test` and the like find their packages. Best effort, as in the reference. The link
 * made, or null.
 */
function linkNodeModules(worktree: string, baseCwd: string): string | null {
  try {
    const base = join(baseCwd, "node_modules");
    const target = join(worktree, "node_modules");
    if (!statSync(base).isDirectory() || existsSync(target)) return null;
    symlinkSync(base, target, "dir");
    return target;
  } catch {
    // No node_modules in the flow's directory, or the link cannot be made: the commands run without.
    return null;
  }
}
