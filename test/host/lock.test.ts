// The lock's forms (host/file-store/lock.ts): a symbolic link whose target is the owner record,
// or, where links are refused, a regular file holding it; both are read, released and respected
// the same way, so a lock written by an older version (a regular file) still excludes.
import { lstatSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acquireLock,
  createFileLock,
  createLinkLock,
  DEFAULT_LOCK_TIMINGS,
  lockContent,
  parseLockOwner,
  readLock,
  releaseLock,
} from "../../host/file-store/lock";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "stratum-lock-"));
  path = join(dir, "f.json.lock");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const quick = { ...DEFAULT_LOCK_TIMINGS, timeoutMs: 30, retryMs: 5 };

describe.runIf(process.platform !== "win32")("locks as symbolic links", () => {
  it("a lock is a symbolic link whose target is this process's owner record", async () => {
    const lock = (await acquireLock(path, quick))!;
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path)).toBe(lock.content);
    expect(parseLockOwner(readLock(path)!)).toMatchObject({ pid: process.pid, host: hostname() });
    releaseLock(lock);
    expect(lstatSync(path, { throwIfNoEntry: false })).toBeUndefined();
  });

  it("a held lock excludes a second taker until it is released", async () => {
    const first = (await acquireLock(path, quick))!;
    expect(await acquireLock(path, quick)).toBeNull();
    releaseLock(first);
    const second = (await acquireLock(path, quick))!;
    expect(second.content).not.toBe(first.content); // a fresh tag: a stale release cannot remove it
    releaseLock(first); // the first owner's late release leaves the second lock alone
    expect(readLock(path)).toBe(second.content);
    releaseLock(second);
  });

  it("a regular lock file (where links are refused, or an older version) excludes a link lock and the other way round", () => {
    const file = createFileLock(path, lockContent())!;
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readLock(path)).toBe(file.content);
    expect(createLinkLock(path, lockContent())).toBeNull();
    releaseLock(file);
    const link = createLinkLock(path, lockContent());
    expect(link).not.toBeNull();
    expect(createFileLock(path, lockContent())).toBeNull();
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  it("an older version's lock file with a trailing newline is read and parsed", () => {
    writeFileSync(path, `4242 cafe 17 ${hostname()}\n`);
    expect(parseLockOwner(readLock(path)!)).toEqual({ pid: 4242, startTime: "17", host: hostname() });
  });

  it("no lock reads as null", () => {
    expect(readLock(path)).toBeNull();
  });
});
