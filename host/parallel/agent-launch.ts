// How an agent program is started so that it cannot outlive the server (docs/reference/runtime.md §23.6).
//
// The agent runs in its own process group (a new session), and the server signals that group on a
// time limit, a cancellation, a shutdown and the agent's exit. None of that happens when the server
// itself is killed (SIGKILL, the OOM killer, a crash): the group would run on until its own end.
// Node has no portable way to ask the kernel for a signal on the parent's death (Linux's
// PR_SET_PDEATHSIG is not exposed, reaches only the direct child, and fires on the death of the
// forking thread, not the process), and polling the parent's pid races with pid reuse. A pipe
// cannot lie: the server holds one end of a pipe whose other end is the agent's file descriptor 3,
// and the kernel closes the server's end whatever way it dies. So the agent is started through a
// fixed `/bin/sh` script that puts a watcher in the background, in the agent's group, blocked
// reading that descriptor; then the shell closes it and `exec`s the agent in its own place, so the
// agent keeps the pid the server knows, its standard streams, and its exit status or signal. When
// the read ends (end of file: the server is gone), the watcher sends SIGTERM to the whole group,
// waits the grace period, then SIGKILL. The watcher ignores SIGTERM so that it survives its own
// group's SIGTERM, and dies with the group's SIGKILL; on every other ending the server's SIGKILL of
// the group takes it too. A program that leaves the group (a new session of its own) escapes, as it
// escapes the server's signals: a container is the boundary for that (docs/reference/runtime.md §23.6).
//
// The program is looked up on PATH here, as `execvp` would, so that a missing or non-executable
// program is still reported as not started (ENOENT, EACCES) rather than as the shell's exit 127.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";

/** The shell script; its arguments are the grace period in seconds, then the program and its arguments. */
const WATCHER_SCRIPT = `grace=$1; shift
(
  trap '' TERM
  read -r _ <&3
  kill -TERM 0
  sleep "$grace"
  kill -KILL 0
) </dev/null >/dev/null 2>&1 &
exec 3<&-
exec "$@"`;

const WATCHER_SHELL = "/bin/sh";

/** What `execvp` searches when there is no PATH. */
const DEFAULT_PATH = "/bin:/usr/bin";

/** A program found (its absolute path), or the errno code `spawn` would have reported. */
export type ProgramLookup =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly code: "ENOENT" | "EACCES"; readonly message: string };

/**
 * `execvp`'s search: a name with a `/` is taken as a path (relative to `cwd`), any other name is
 * looked up in each PATH directory (an empty entry is `cwd`) in order; the first executable
 * regular file wins. EACCES when a file was found but none could be run, else ENOENT.
 */
export function lookUpProgram(program: string, path: string | undefined, cwd: string): ProgramLookup {
  if (program === "") return { ok: false, code: "ENOENT", message: "spawn ENOENT (empty program name)" };
  const candidates = program.includes("/")
    ? [isAbsolute(program) ? program : resolve(cwd, program)]
    : (path ?? DEFAULT_PATH).split(delimiter).map((dir) => resolve(cwd, dir === "" ? "." : dir, program));
  let denied = false;
  for (const candidate of candidates) {
    const kind = fileKind(candidate);
    if (kind === "missing") continue;
    if (kind === "file" && executable(candidate)) return { ok: true, path: candidate };
    denied = true;
  }
  return denied
    ? { ok: false, code: "EACCES", message: `spawn ${program} EACCES` }
    : { ok: false, code: "ENOENT", message: `spawn ${program} ENOENT` };
}

/** The `spawn` file and arguments that run `programPath` under the watcher. */
export function watchedCommand(
  programPath: string,
  args: readonly string[],
  killGraceMs: number,
): { readonly file: string; readonly args: readonly string[] } {
  const graceSeconds = Math.max(1, Math.ceil(killGraceMs / 1000));
  return {
    file: WATCHER_SHELL,
    args: ["-c", WATCHER_SCRIPT, "stratum-agent", String(graceSeconds), programPath, ...args],
  };
}

function fileKind(path: string): "file" | "other" | "missing" {
  try {
    return statSync(path).isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
