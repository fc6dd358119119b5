// Who a process is, for lock files and temporary files: its pid plus, on Linux, its
// start time (field 22 of /proc/<pid>/stat, clock ticks since boot), so that a pid reused by a new
// process is not mistaken for the old one. Elsewhere the start time is null and only liveness of
// the pid can be judged.
import * as fs from "node:fs";
import { errorCode } from "./fs-util";

export interface ProcessIdentity {
  readonly pid: number;
  /** Clock ticks since boot as decimal text (Linux), or null where unknown. */
  readonly startTime: string | null;
}

let own: ProcessIdentity | undefined;

/** This process (read once). */
export function ownProcess(): ProcessIdentity {
  own ??= { pid: process.pid, startTime: readStartTime(process.pid) };
  return own;
}

/** Linux: the start time of `pid` from /proc; null when unavailable (no /proc, no such process, a zombie). */
export function readStartTime(pid: number): string | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
  if (fields[0] === "Z" || fields[0] === "X") return null; // dead, not yet reaped
  const start = fields[19];
  return start !== undefined && /^[0-9]+$/.test(start) ? start : null;
}

/** Whether the pid names a live process on this host (EPERM: alive, owned by another user). */
export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return errorCode(e) !== "ESRCH";
  }
  // A zombie (killed, not yet reaped by its parent) still answers signal 0.
  if (process.platform === "linux") {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state === "Z" || state === "X") return false;
    } catch (e) {
      if (errorCode(e) === "ENOENT") return false;
    }
  }
  return true;
}

/**
 * Whether the process is certainly gone on this host: its pid is not alive, or it is alive with
 * another start time (reused). False whenever in doubt.
 */
export function processGone(identity: ProcessIdentity): boolean {
  if (!pidAlive(identity.pid)) return true;
  if (identity.startTime === null) return false;
  const current = readStartTime(identity.pid);
  return current !== null && current !== identity.startTime;
}
