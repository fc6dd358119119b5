// Child process of lock-takeover.test.ts's race: takes the lock `rounds` times with the real
// acquireLock; while holding it, claims `<dir>/held` by exclusive creation (failing means another
// process holds the lock too: prints "overlap" and exits 1), holds briefly, then either releases
// or "dies" holding it: replaces the lock (atomically, by a rename) with one recording a dead
// process (`deadPid`), so that the other children must take it over. Prints "done <takeovers>" at the end.
import { closeSync, openSync, renameSync, symlinkSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { acquireLock, DEFAULT_LOCK_TIMINGS, releaseLock } from "../../host/file-store/lock";

async function main(): Promise<void> {
  const [dir, rounds, deadPid] = process.argv.slice(2) as [string, string, string];
  const lockPath = join(dir, "flow.json.lock");
  const held = join(dir, "held");
  let takeovers = 0;
  for (let i = 0; i < Number(rounds); i++) {
    const lock = await acquireLock(lockPath, { ...DEFAULT_LOCK_TIMINGS, timeoutMs: 20_000, retryMs: 1 });
    if (lock === null) throw new Error("lock timed out");
    if (lock.tookOver) takeovers += 1;
    try {
      closeSync(openSync(held, "wx"));
    } catch {
      process.stdout.write("overlap\n");
      process.exit(1);
    }
    const until = Date.now() + 1 + Math.floor(Math.random() * 2);
    while (Date.now() < until) {
      // hold
    }
    unlinkSync(held);
    if (Math.random() < 0.5) releaseLock(lock);
    else {
      const aside = `${lockPath}.dying-${process.pid}`;
      symlinkSync(`${deadPid} dead${i} 1 ${hostname()}`, aside);
      renameSync(aside, lockPath);
    }
  }
  process.stdout.write(`done ${takeovers}\n`);
}

void main();
