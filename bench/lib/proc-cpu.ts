// CPU seconds (user + system) of processes, from /proc (Linux): the load harness splits its
// machine's time between the servers, the clients and PostgreSQL with these.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

interface ProcStat {
  readonly ppid: number;
  readonly cpuSeconds: number;
}

function stat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS };
  } catch {
    return null;
  }
}

/** CPU seconds used so far by these processes (the ones gone count 0). */
export function cpuSecondsOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (stat(pid)?.cpuSeconds ?? 0), 0);
}

/** CPU seconds used so far by the PostgreSQL server of `dataDir`: its postmaster and its children. */
export function postgresCpuSeconds(dataDir: string): number {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return Number.NaN;
  }
  let sum = stat(postmaster)?.cpuSeconds ?? 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s !== null && s.ppid === postmaster) sum += s.cpuSeconds;
  }
  return sum;
}
