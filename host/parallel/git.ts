// Runs one git command without a shell, with a time limit, an output bound and an optional abort
// signal, and reports how it ended instead of throwing: the worktree helpers turn each ending into
// the reference's error texts (docs/reference/runtime.md §23.10).
import { execFile } from "node:child_process";
import { statSync } from "node:fs";

export type GitEnding =
  | { readonly kind: "ok" }
  | { readonly kind: "exit"; readonly code: number }
  | { readonly kind: "signal"; readonly signal: string }
  | { readonly kind: "timeout" }
  | { readonly kind: "aborted" }
  | { readonly kind: "too-large" }
  /** git could not be started at all (not installed, or `cwd` is not a directory). */
  | { readonly kind: "not-started"; readonly reason: string };

export interface GitRun {
  readonly ending: GitEnding;
  readonly stdout: Buffer;
  /** Decoded as UTF-8 with invalid bytes replaced, trimmed. */
  readonly stderr: string;
}

export interface GitOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Bound on stdout (and stderr) in bytes; beyond it the command is killed ("too-large"). */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_GIT_MAX_BYTES = 16 * 1024 * 1024;

interface ExecError extends Error {
  code?: number | string | null;
  killed?: boolean;
  signal?: NodeJS.Signals | null;
}

export function runGit(args: readonly string[], options: GitOptions): Promise<GitRun> {
  const empty = Buffer.alloc(0);
  if (!isDirectory(options.cwd)) {
    return Promise.resolve({
      ending: { kind: "not-started", reason: `no such directory '${options.cwd}'` },
      stdout: empty,
      stderr: "",
    });
  }
  if (options.signal?.aborted)
    return Promise.resolve({ ending: { kind: "aborted" }, stdout: empty, stderr: "" });
  return new Promise((resolve) => {
    execFile(
      "git",
      [...args],
      {
        cwd: options.cwd,
        timeout: options.timeoutMs,
        maxBuffer: options.maxBytes ?? DEFAULT_GIT_MAX_BYTES,
        encoding: "buffer",
        signal: options.signal,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const out = Buffer.isBuffer(stdout) ? stdout : empty;
        const err = (Buffer.isBuffer(stderr) ? stderr : empty).toString("utf8").trim();
        resolve({ ending: gitEnding(error as ExecError | null, options.signal), stdout: out, stderr: err });
      },
    );
  });
}

function gitEnding(error: ExecError | null, signal: AbortSignal | undefined): GitEnding {
  if (error === null) return { kind: "ok" };
  if (signal?.aborted || error.name === "AbortError") return { kind: "aborted" };
  if (error.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return { kind: "too-large" };
  if (typeof error.code === "number") return { kind: "exit", code: error.code };
  if (error.code === "ENOENT") return { kind: "not-started", reason: "git not found on PATH" };
  if (typeof error.code === "string") return { kind: "not-started", reason: error.message };
  // No exit code: killed by a signal, ours (the time limit) or someone else's.
  if (error.killed) return { kind: "timeout" };
  return { kind: "signal", signal: error.signal ?? "unknown signal" };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
