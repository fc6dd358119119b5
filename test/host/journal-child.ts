// The child process of the journal crash test (journal-crash.test.ts), bundled with esbuild by the
// test. `journal-child <path>`: takes the journal's lock, drops a torn tail (exits 2 on a corrupt
// journal), prints "ready <entries>", then appends numbered entries until killed, each under the
// lock, and acknowledges each on stdout (a synchronous write) as soon as appendEntry returned.
import { writeSync } from "node:fs";
import { appendEntry, readJournal, truncateTornTail } from "../../host/file-store/journal";
import { acquireLock, DEFAULT_LOCK_TIMINGS, type HeldLock, releaseLock } from "../../host/file-store/lock";

/** The payload of entry `i`: its number and a pad of varying length (frames cross pages). */
export function crashEntry(i: number): string {
  return JSON.stringify({ i, pad: "x".repeat((i * 797) % 9000) });
}

function say(line: string): void {
  writeSync(1, `${line}\n`);
}

async function locked(path: string): Promise<HeldLock> {
  const lock = await acquireLock(`${path}.lock`, DEFAULT_LOCK_TIMINGS);
  if (lock === null) throw new Error("the journal stayed locked");
  return lock;
}

async function main(path: string): Promise<void> {
  let lock = await locked(path);
  const scan = readJournal(path);
  let size = 0;
  let n = 0;
  if (scan !== null) {
    if (scan.damage?.kind === "corrupt") {
      say(`corrupt ${JSON.stringify(scan.damage)}`);
      process.exit(2);
    }
    size = scan.damage === null ? scan.size : truncateTornTail(path, scan, lock);
    n = scan.entries.length;
  }
  releaseLock(lock);
  say(`ready ${n}`);
  for (;;) {
    lock = await locked(path);
    size = appendEntry(path, crashEntry(n), { expectedSize: size }).end;
    releaseLock(lock);
    say(`ack ${n}`);
    n += 1;
  }
}

if (process.argv[2] !== undefined) {
  main(process.argv[2]).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
