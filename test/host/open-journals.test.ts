// The journals a file store keeps open between commits (host/file-store/open-journals.ts):
// a kept descriptor is written only when it is provably the file at the journal's path; it is
// closed when the flow is snapshotted, removed, read again after another process's change, or
// its commit fails; at most `openJournals` stay open.
import type { BigIntStats } from "node:fs";
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { encodeFrame, readJournal } from "../../host/file-store/journal";
import { OpenJournals, sameOpenFile } from "../../host/file-store/open-journals";
import { StaleStateError } from "../../interpreter/store/store";
import { payloadWrite, storedPayload } from "../interpreter/store/flow-text";

let home: string;
let flows: string;
const stores: FileFlowStore[] = [];
beforeEach(() => {
  home = join(mkdtempSync(join(tmpdir(), "stratum-open-journals-")), "home");
  flows = join(home, "flows");
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(resolve(home, ".."), { recursive: true, force: true });
});

function newStore(options: ConstructorParameters<typeof FileFlowStore>[1] = {}): FileFlowStore {
  const store = new FileFlowStore(home, options);
  stores.push(store);
  return store;
}

const journalOf = (id: string) => join(flows, `${id}.journal`);

async function commitUpTo(store: FileFlowStore, id: string, n: number, from = 0): Promise<void> {
  for (let r = from; r < n; r++) await store.commit({ writes: [payloadWrite(id, r, r + 1)], deletes: [] });
}

const hasProc = existsSync("/proc/self/fd");

/** This process's descriptors open on `path` (Linux: /proc/self/fd), as numbers. */
function descriptorsOn(path: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${name}`);
      if (target === path || target === `${path} (deleted)`) out.push(Number(name));
    } catch {
      // closed meanwhile (the directory listing's own descriptor)
    }
  }
  return out;
}

/** This process's descriptors open on `path` after it was removed. */
function removedDescriptorsOn(path: string): number[] {
  return descriptorsOn(path).filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).endsWith(" (deleted)");
    } catch {
      return false;
    }
  });
}

/** This process's descriptors open on files in `flows/` (deleted ones included). */
function descriptorsInFlows(): number {
  let n = 0;
  for (const name of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${name}`).startsWith(`${flows}/`)) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

/** Opens `path` so that it gets exactly descriptor number `fd` (which must be free). */
function openAsNumber(path: string, fd: number): void {
  const extra: number[] = [];
  try {
    for (;;) {
      const got = openSync(path, "r+");
      if (got === fd) return;
      extra.push(got);
      if (got > fd) throw new Error(`descriptor ${fd} is not free`);
    }
  } finally {
    for (const e of extra) closeSync(e);
  }
}

function fakeStats(s: {
  dev?: bigint;
  ino?: bigint;
  nlink?: bigint;
  size?: bigint;
  file?: boolean;
}): BigIntStats {
  return {
    dev: s.dev ?? 1n,
    ino: s.ino ?? 42n,
    nlink: s.nlink ?? 1n,
    size: s.size ?? 100n,
    isFile: () => s.file ?? true,
  } as unknown as BigIntStats;
}

describe("sameOpenFile", () => {
  it("accepts only the same device and inode, still linked, a regular file of the expected size", () => {
    const atPath = fakeStats({});
    expect(sameOpenFile(fakeStats({}), atPath, 100)).toBe(true);
    // a removed journal whose inode number a new journal reused: never written
    expect(sameOpenFile(fakeStats({ nlink: 0n }), atPath, 100)).toBe(false);
    expect(sameOpenFile(fakeStats({ ino: 43n }), atPath, 100)).toBe(false);
    expect(sameOpenFile(fakeStats({ dev: 2n }), atPath, 100)).toBe(false);
    expect(sameOpenFile(fakeStats({ file: false }), atPath, 100)).toBe(false);
    expect(sameOpenFile(fakeStats({}), atPath, 99)).toBe(false);
    expect(sameOpenFile(fakeStats({ size: 120n }), fakeStats({ size: 100n }), 120)).toBe(false);
  });
});

describe("OpenJournals", () => {
  it("keeps at most `limit` descriptors, closing the least recently used", () => {
    const dir = mkdtempSync(join(tmpdir(), "stratum-open-journals-lru-"));
    try {
      const path = join(dir, "f");
      writeFileSync(path, "");
      const set = new OpenJournals(2);
      const fds = [openSync(path, "r"), openSync(path, "r"), openSync(path, "r")];
      set.keep("a", fds[0]!);
      set.keep("b", fds[1]!);
      expect(set.take("a")).toBe(fds[0]); // used again: now the most recent
      set.keep("a", fds[0]!);
      set.keep("c", fds[2]!); // "b" falls out and is closed
      expect(set.size).toBe(2);
      expect(set.take("b")).toBeUndefined();
      if (hasProc) expect(descriptorsOn(path).sort()).toEqual([fds[0], fds[2]].sort());
      set.closeAll();
      expect(set.size).toBe(0);
      if (hasProc) expect(descriptorsOn(path)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps nothing with a limit of 0", () => {
    const dir = mkdtempSync(join(tmpdir(), "stratum-open-journals-lru-"));
    try {
      const path = join(dir, "f");
      writeFileSync(path, "");
      const set = new OpenJournals(0);
      set.keep("a", openSync(path, "r"));
      expect(set.size).toBe(0);
      if (hasProc) expect(descriptorsOn(path)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(hasProc)("a file store's kept journals", () => {
  it("appends through one kept descriptor per flow instead of opening the journal each time", async () => {
    const store = newStore();
    await commitUpTo(store, "f1", 2);
    const [kept] = descriptorsOn(journalOf("f1"));
    expect(kept).toBeDefined();
    await commitUpTo(store, "f1", 6, 2);
    expect(descriptorsOn(journalOf("f1"))).toEqual([kept]);
    expect(store.openJournalCount).toBe(1);
    expect(readJournal(journalOf("f1"))?.entries).toHaveLength(5);
    expect(await storedPayload(newStore(), "f1")).toEqual({ revision: 6, payload: 6 });
  });

  it("closes the kept journal when the flow is snapshotted, deleted in a batch or removed", async () => {
    const store = newStore();
    await commitUpTo(store, "f1", 3);
    expect(descriptorsOn(journalOf("f1"))).toHaveLength(1);
    await store.commit({ writes: [payloadWrite("f1", 3, "done", true)], deletes: [] }); // finished: snapshot
    expect(existsSync(journalOf("f1"))).toBe(false);
    expect(descriptorsOn(journalOf("f1"))).toEqual([]);
    expect(store.openJournalCount).toBe(0);

    await commitUpTo(store, "f2", 3);
    await commitUpTo(store, "f3", 3);
    expect(store.openJournalCount).toBe(2);
    await store.commit({
      writes: [payloadWrite("f3", 3, 4)],
      deletes: [{ flowId: "f2", expectedRevision: 3 }],
    });
    expect(descriptorsOn(journalOf("f2"))).toEqual([]);
    expect(await store.remove("f3")).toBe(true);
    expect(descriptorsOn(journalOf("f3"))).toEqual([]);
    expect(store.openJournalCount).toBe(0);
    expect(descriptorsInFlows()).toBe(0);
  });

  it("closes the kept journal when the journal grows into a snapshot", async () => {
    const store = newStore({ minSnapshotBytes: 1024 });
    const big = (r: number) => `${r}:${"x".repeat(300)}`;
    let snapshots = 0;
    for (let r = 0; r < 30; r++) {
      const before = existsSync(journalOf("f1")) ? statSync(journalOf("f1")).ino : null;
      await store.commit({ writes: [payloadWrite("f1", r, big(r + 1))], deletes: [] });
      if (before !== null && !existsSync(journalOf("f1"))) snapshots++;
      expect(descriptorsOn(journalOf("f1")).length).toBeLessThanOrEqual(1);
      expect(descriptorsInFlows()).toBeLessThanOrEqual(1);
    }
    expect(snapshots).toBeGreaterThan(1);
    expect(await storedPayload(newStore(), "f1")).toEqual({ revision: 30, payload: big(30) });
  });

  it("never writes through a stale descriptor after another process replaced the journal", async () => {
    const a = newStore();
    const b = newStore({ minSnapshotBytes: 1024 });
    await commitUpTo(a, "f1", 3); // a keeps the journal open
    const old = statSync(journalOf("f1"));
    const [stale] = descriptorsOn(journalOf("f1"));
    expect(stale).toBeDefined();
    // The other process: a snapshot (journal removed), then with another store a new journal.
    await expect(storedPayload(b, "f1")).resolves.toEqual({ revision: 3, payload: 3 });
    // an entry as large as the snapshot: written as a snapshot, the journal removed
    await b.commit({ writes: [payloadWrite("f1", 3, "x".repeat(4096))], deletes: [] });
    expect(existsSync(journalOf("f1"))).toBe(false);
    const c = newStore();
    await c.read("f1");
    await commitUpTo(c, "f1", 6, 4);
    expect(statSync(journalOf("f1")).ino).not.toBe(old.ino); // the old inode is still open in `a`
    // `a` learns the new revision by reading (its memory is then current), then commits.
    await expect(storedPayload(a, "f1")).resolves.toEqual({ revision: 6, payload: 6 });
    expect(removedDescriptorsOn(journalOf("f1"))).toEqual([stale]);
    await a.commit({ writes: [payloadWrite("f1", 6, 7)], deletes: [] });
    expect(removedDescriptorsOn(journalOf("f1"))).toEqual([]); // closed, never written
    const scan = readJournal(journalOf("f1"));
    expect(scan?.damage).toBeNull();
    expect(scan?.entries).toHaveLength(3); // revisions 5, 6 and 7
    expect(await storedPayload(newStore(), "f1")).toEqual({ revision: 7, payload: 7 });
  });

  it("never writes through a kept descriptor that is not the journal at the path", async () => {
    const store = newStore();
    await commitUpTo(store, "f1", 3);
    const [kept] = descriptorsOn(journalOf("f1"));
    if (kept === undefined) throw new Error("no kept journal");
    // Put another file under the kept number: the store's memory of the flow is still current,
    // so only the check of the descriptor stands between the entry and that file.
    const decoy = join(resolve(home, ".."), "decoy");
    writeFileSync(decoy, encodeFrame('{"revision": 3, "status": "running"}'));
    const decoyBytes = readFileSync(decoy);
    closeSync(kept);
    openAsNumber(decoy, kept);
    await store.commit({ writes: [payloadWrite("f1", 3, 4)], deletes: [] });
    expect(readJournal(journalOf("f1"))?.entries).toHaveLength(3);
    expect(await storedPayload(newStore(), "f1")).toEqual({ revision: 4, payload: 4 });
    // The decoy was not written, and the store closed the descriptor it could not use.
    expect(readFileSync(decoy)).toEqual(decoyBytes);
    expect(descriptorsOn(decoy)).toEqual([]);
    unlinkSync(decoy);
  });

  it("cuts a torn tail another process left before appending again, then keeps going", async () => {
    const store = newStore();
    await commitUpTo(store, "f1", 2);
    const frame = encodeFrame('{"revision": 3, "status": "running"}');
    appendFileSync(journalOf("f1"), frame.subarray(0, frame.length - 5)); // an append cut short
    await commitUpTo(store, "f1", 4, 2);
    const scan = readJournal(journalOf("f1"));
    expect(scan?.damage).toBeNull();
    expect(scan?.entries).toHaveLength(3);
    expect(await storedPayload(newStore(), "f1")).toEqual({ revision: 4, payload: 4 });
    expect(descriptorsOn(journalOf("f1"))).toHaveLength(1);
  });

  it("closes the kept journal when a commit fails", async () => {
    const a = newStore();
    await commitUpTo(a, "f1", 3);
    await commitUpTo(newStore(), "f1", 4, 3); // another process moved the flow on
    await expect(a.commit({ writes: [payloadWrite("f1", 3, 4)], deletes: [] })).rejects.toBeInstanceOf(
      StaleStateError,
    );
    expect(a.openJournalCount).toBe(0);
  });

  it("keeps at most `openJournals` journals open", async () => {
    const store = newStore({ openJournals: 4 });
    for (let i = 0; i < 10; i++) await commitUpTo(store, `f${i}`, 3);
    expect(store.openJournalCount).toBe(4);
    expect(descriptorsInFlows()).toBe(4);
    for (let i = 0; i < 10; i++) await commitUpTo(store, `f${i}`, 5, 3); // reopened as needed
    expect(store.openJournalCount).toBe(4);
    for (let i = 0; i < 10; i++)
      expect(await storedPayload(newStore(), `f${i}`)).toEqual({ revision: 5, payload: 5 });
    store.close();
    expect(descriptorsInFlows()).toBe(0);
  });

  it("keeps none with openJournals: 0, and the default is bounded", async () => {
    const none = newStore({ openJournals: 0 });
    await commitUpTo(none, "f1", 4);
    expect(none.openJournalCount).toBe(0);
    expect(descriptorsInFlows()).toBe(0);
    const store = newStore();
    for (let i = 0; i < 40; i++) await commitUpTo(store, `g${i}`, 2);
    expect(store.openJournalCount).toBe(32);
  });
});
