// Runs one agent program to its end (docs/reference/runtime.md §23.6): its arguments never pass through a
// shell (a fixed watcher script `exec`s it, agent-launch.ts), the prompt on stdin, in its own
// process group so that stopping it stops everything it started. A time limit or an abort
// sends SIGTERM to the group, then SIGKILL after a grace period; when the program exits, whatever
// it left behind in its group is killed too, and the watcher kills the group if the server dies.
// Reports how it ended; never throws.
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { lookUpProgram, watchedCommand } from "./agent-launch";

export interface ProcessSpec {
  readonly program: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed. */
  readonly input: string;
}

export interface ProcessLimits {
  readonly timeoutMs: number;
  /** From SIGTERM to SIGKILL. */
  readonly killGraceMs: number;
  /**
   * stdout beyond this many bytes is refused: the process is stopped ("too-large") — unless
   * `stdoutTail` is set, and then only the last this many bytes are kept, as for stderr.
   */
  readonly maxStdoutBytes: number;
  readonly stdoutTail?: boolean;
  /** Only the last this many bytes of stderr are kept (it only feeds error texts). */
  readonly maxStderrBytes: number;
}

export const DEFAULT_PROCESS_LIMITS: Omit<ProcessLimits, "timeoutMs"> = {
  killGraceMs: 5_000,
  maxStdoutBytes: 16 * 1024 * 1024,
  maxStderrBytes: 64 * 1024,
};

export type ProcessEnding =
  | {
      readonly kind: "exited";
      /** null when a signal ended it. */
      readonly code: number | null;
      readonly signal: string | null;
      readonly stdout: string;
      readonly stderr: string;
    }
  | { readonly kind: "timeout" }
  | { readonly kind: "aborted" }
  | { readonly kind: "too-large" }
  /** The program could not be started: `code` is the errno name (ENOENT: not found). */
  | { readonly kind: "not-started"; readonly code: string; readonly message: string };

/** After the program exits, how long its pipes may stay open (held by a detached grandchild). */
const PIPE_DRAIN_MS = 1_000;
const GROUPS = process.platform !== "win32";

export function runProcess(
  spec: ProcessSpec,
  limits: ProcessLimits,
  signal?: AbortSignal,
): Promise<ProcessEnding> {
  if (signal?.aborted) return Promise.resolve({ kind: "aborted" });
  if (!isDirectory(spec.cwd)) {
    return Promise.resolve({
      kind: "not-started",
      code: "ENOTDIR",
      message: `working directory '${spec.cwd}' does not exist`,
    });
  }
  let file = spec.program;
  let args = [...spec.args];
  if (GROUPS) {
    const found = lookUpProgram(spec.program, spec.env.PATH, spec.cwd);
    if (!found.ok) return Promise.resolve({ kind: "not-started", code: found.code, message: found.message });
    const watched = watchedCommand(found.path, spec.args, limits.killGraceMs);
    file = watched.file;
    args = [...watched.args];
  }
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: spec.cwd,
      env: spec.env,
      // Descriptor 3: the pipe whose end of file tells the watcher that the server is gone.
      stdio: GROUPS ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
      detached: GROUPS,
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let overflow = false;
    let stopReason: "timeout" | "aborted" | "too-large" | null = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const signalGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        if (GROUPS) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (reason: "timeout" | "aborted" | "too-large"): void => {
      if (stopReason !== null || exit !== null || settled) return;
      stopReason = reason;
      signalGroup("SIGTERM");
      timers.push(setTimeout(() => signalGroup("SIGKILL"), limits.killGraceMs));
    };
    const onAbort = (): void => stop("aborted");
    const finish = (ending: ProcessEnding): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      signal?.removeEventListener("abort", onAbort);
      resolve(ending);
    };
    const finishExited = (): void => {
      if (overflow) finish({ kind: "too-large" });
      else if (stopReason !== null) finish({ kind: stopReason });
      else
        finish({
          kind: "exited",
          code: exit?.code ?? null,
          signal: exit?.signal ?? null,
          stdout: stdoutText(Buffer.concat(stdout), limits),
          stderr: stderr.toString("utf8"),
        });
    };

    child.on("error", (e: NodeJS.ErrnoException) => {
      // Only a failed spawn reaches here with no pid; later errors (a failed kill) are ignored.
      if (child.pid === undefined)
        finish({ kind: "not-started", code: e.code ?? "UNKNOWN", message: e.message });
    });
    child.stdin.on("error", () => {
      // The program exited without reading its input (EPIPE): its exit tells the story.
    });
    child.stdout.on("data", (chunk: Buffer) => {
      if (overflow) return;
      if (limits.stdoutTail === true) {
        stdout.push(chunk);
        stdoutBytes += chunk.length;
        // Drop whole chunks from the front while what stays still holds the tail.
        while (stdout.length > 1 && stdoutBytes - stdout[0]!.length >= limits.maxStdoutBytes)
          stdoutBytes -= stdout.shift()!.length;
        return;
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > limits.maxStdoutBytes) {
        overflow = true;
        stdout.length = 0;
        stop("too-large");
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > limits.maxStderrBytes)
        stderr = stderr.subarray(stderr.length - limits.maxStderrBytes);
    });
    child.on("exit", (code, sig) => {
      exit = { code, signal: sig };
      // Leftovers of the agent (background jobs) go with it.
      signalGroup("SIGKILL");
      // Normally "close" follows at once; a process outside the group may hold the pipes.
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          child.stdio[3]?.destroy();
          finishExited();
        }, PIPE_DRAIN_MS),
      );
    });
    child.on("close", () => {
      if (exit !== null) finishExited();
    });

    if (child.pid !== undefined) {
      signal?.addEventListener("abort", onAbort, { once: true });
      timers.push(setTimeout(() => stop("timeout"), clampTimeout(limits.timeoutMs)));
      child.stdin.end(spec.input);
    }
  });
}

/** The kept stdout as text: in tail mode, its last `maxStdoutBytes` bytes. */
function stdoutText(out: Buffer, limits: ProcessLimits): string {
  const kept =
    limits.stdoutTail === true ? out.subarray(Math.max(0, out.length - limits.maxStdoutBytes)) : out;
  return kept.toString("utf8");
}

/** setTimeout's largest delay (about 24.8 days); longer limits are as good as none. */
function clampTimeout(ms: number): number {
  return Math.min(Math.max(0, ms), 2_147_483_647);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
