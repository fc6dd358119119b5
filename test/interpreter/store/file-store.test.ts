// What only the file store does (docs/reference/runtime.md §14.1, docs/reference/runtime.md §14.3): where files go, lock files (contention,
// timeout, stale locks) with an injected clock so nothing waits, no leftovers, STRATUM_HOME.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore, stratumHome } from "../../../host/file-store/file-store";
import { acquireLock, type LockTimings, releaseLock } from "../../../host/file-store/lock";
import { StoreLockedError, textWrite } from "../../../interpreter/store/store";
import { flowText } from "./flow-text";

let home: string;
beforeEach(() => {
  home = join(mkdtempSync(join(tmpdir(), "stratum-file-store-")), "home");
});
afterEach(() => rmSync(resolve(home, ".."), { recursive: true, force: true }));

/** A clock that moves only when the store sleeps: lock timeouts pass without waiting. */
function fakeTimings(): LockTimings & { elapsed(): number; sleeps: number } {
  const start = Date.now();
  let now = start;
  const timings = {
    timeoutMs: 2000,
    retryMs: 10,
    staleMs: 30_000,
    now: () => now,
    sleep: async (ms: number) => {
      timings.sleeps += 1;
      now += ms;
    },
    elapsed: () => now - start,
    sleeps: 0,
  };
  return timings;
}

const write = (flowId: string, expectedRevision: number) =>
  textWrite(flowId, flowText(flowId, expectedRevision + 1), expectedRevision);

describe("FileFlowStore files", () => {
  it("creates $STRATUM_HOME/flows on the first commit and writes <id>.json with the exact text", async () => {
    const store = new FileFlowStore(home);
    expect(existsSync(home)).toBe(false);
    expect(await store.list()).toEqual([]);
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    expect(readdirSync(join(home, "flows"))).toEqual(["f1.json"]); // no lock or temporary file left
    expect((await store.read("f1"))?.text).toBe(flowText("f1", 1));
  });

  it("uses mtime, size and inode of the snapshot and of the journal (`-` when none) as the change token", async () => {
    const store = new FileFlowStore(home);
    const token = (await store.commit({ writes: [write("f1", 0)], deletes: [] })).get("f1");
    const stat = statSync(join(home, "flows", "f1.json"), { bigint: true });
    expect(token).toBe(`${stat.mtimeNs}:${stat.size}:${stat.ino}|-`);
  });

  it("notices a change made by another writer through the token", async () => {
    const store = new FileFlowStore(home);
    const token = (await store.commit({ writes: [write("f1", 0)], deletes: [] })).get("f1");
    writeFileSync(join(home, "flows", "f1.json"), flowText("f1", 2)); // in place, same inode
    expect(await store.token("f1")).not.toBe(token);
  });

  it("lists only flow files, with their modification time", async () => {
    const store = new FileFlowStore(home);
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    const dir = join(home, "flows");
    for (const name of ["f2.json.lock", "f1.json.tmp-1-ab", "notes.txt", ".hidden.json", "sub.json"]) {
      if (name === "sub.json") mkdirSync(join(dir, name));
      else writeFileSync(join(dir, name), "{}");
    }
    utimesSync(join(dir, "f1.json"), 1_700_000_000, 1_700_000_000);
    expect(await store.list()).toEqual([{ flowId: "f1", modifiedMs: 1_700_000_000_000 }]);
  });

  it("reads a damaged file as revision 0 (it then decodes to nothing: flow not found)", async () => {
    const store = new FileFlowStore(home);
    mkdirSync(join(home, "flows"), { recursive: true });
    writeFileSync(join(home, "flows", "bad.json"), "{ not json");
    expect(await store.read("bad")).toMatchObject({ text: "{ not json", revision: 0 });
  });
});

describe("FileFlowStore.removeLeftovers", () => {
  it("removes temporary files and locks older than 30 s, nothing else", async () => {
    const store = new FileFlowStore(home);
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    const dir = join(home, "flows");
    const put = (name: string, ageMs: number) => {
      writeFileSync(join(dir, name), "x");
      const at = (Date.now() - ageMs) / 1000;
      utimesSync(join(dir, name), at, at);
    };
    put("f1.json.tmp-123-abcdef", 31_000);
    put("f1.json.tmp-124-abcdef", 1_000);
    put("f2.json.lock", 60_000);
    put("f3.json.lock", 5_000);
    put("f4.json.lock.stale-9-ab", 40_000);
    put("notes.txt", 90_000);
    utimesSync(join(dir, "f1.json"), 1_000_000, 1_000_000);
    expect(await store.removeLeftovers()).toBe(3);
    expect(readdirSync(dir).sort()).toEqual([
      "f1.json",
      "f1.json.tmp-124-abcdef",
      "f3.json.lock",
      "notes.txt",
    ]);
  });

  it("finds nothing to do without a flows directory", async () => {
    expect(await new FileFlowStore(home).removeLeftovers()).toBe(0);
  });
});

describe("FileFlowStore locks", () => {
  const lockFile = (id: string) => join(home, "flows", `${id}.json.lock`);
  const holdLock = (id: string, ageMs = 0) => {
    mkdirSync(join(home, "flows"), { recursive: true });
    writeFileSync(lockFile(id), "4242\n");
    const at = (Date.now() - ageMs) / 1000;
    utimesSync(lockFile(id), at, at);
  };

  it("gives up after 2 s of retries every 10 ms with state_locked, changing nothing", async () => {
    const timings = fakeTimings();
    const store = new FileFlowStore(home, { lock: timings });
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    holdLock("f1");
    const attempt = store.commit({ writes: [write("f1", 1)], deletes: [] });
    await expect(attempt).rejects.toThrow(new StoreLockedError("f1"));
    await expect(attempt).rejects.toThrow("Flow 'f1' is locked by another process; retry the call");
    expect(timings.elapsed()).toBe(2000);
    expect(timings.sleeps).toBe(200);
    expect((await store.read("f1"))?.revision).toBe(1);
    expect(existsSync(lockFile("f1"))).toBe(true); // another process's lock is left alone
  });

  it("takes the lock as soon as its holder releases it", async () => {
    const timings = fakeTimings();
    const sleep = timings.sleep;
    const store = new FileFlowStore(home, {
      lock: {
        ...timings,
        sleep: async (ms) => {
          await sleep(ms);
          if (timings.sleeps === 3) rmSync(lockFile("f1")); // the holder finishes
        },
      },
    });
    holdLock("f1");
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    expect(timings.sleeps).toBe(3);
    expect((await store.read("f1"))?.revision).toBe(1);
  });

  it("removes a lock older than 30 s (its holder died) and proceeds", async () => {
    const timings = fakeTimings();
    const store = new FileFlowStore(home, { lock: timings });
    holdLock("f1", 31_000);
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    expect(timings.sleeps).toBe(0);
    expect(readdirSync(join(home, "flows"))).toEqual(["f1.json"]);
  });

  it("keeps a lock younger than 30 s", async () => {
    const store = new FileFlowStore(home, { lock: { ...fakeTimings(), timeoutMs: 100 } });
    holdLock("f1", 20_000);
    await expect(store.commit({ writes: [write("f1", 0)], deletes: [] })).rejects.toThrow(StoreLockedError);
  });

  it("releases the locks it took when a later flow of the batch is locked", async () => {
    const store = new FileFlowStore(home, { lock: fakeTimings() });
    holdLock("b");
    await expect(store.commit({ writes: [write("a", 0), write("b", 0)], deletes: [] })).rejects.toThrow(
      "Flow 'b' is locked by another process; retry the call",
    );
    expect(readdirSync(join(home, "flows"))).toEqual(["b.json.lock"]);
  });

  it("releases the locks when a precondition fails", async () => {
    const store = new FileFlowStore(home);
    await store.commit({ writes: [write("a", 0)], deletes: [] });
    await expect(store.commit({ writes: [write("b", 0), write("a", 0)], deletes: [] })).rejects.toThrow(
      "revision 1 on disk, 0 expected",
    );
    expect(readdirSync(join(home, "flows"))).toEqual(["a.json"]);
  });

  it("releases only its own lock (one broken as stale and retaken by another process stays)", async () => {
    mkdirSync(join(home, "flows"), { recursive: true });
    const lock = await acquireLock(lockFile("f1"), fakeTimings());
    expect(lock).not.toBeNull();
    rmSync(lockFile("f1"));
    writeFileSync(lockFile("f1"), "other\n"); // a new file: another inode
    releaseLock(lock!);
    expect(readFileSync(lockFile("f1"), "utf8")).toBe("other\n");
  });

  it("does not remove a locked flow", async () => {
    const store = new FileFlowStore(home, { lock: fakeTimings() });
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    holdLock("f1");
    await expect(store.remove("f1")).rejects.toThrow(StoreLockedError);
    expect(existsSync(join(home, "flows", "f1.json"))).toBe(true);
  });
});

describe("stratumHome", () => {
  const user = "/home/ada";
  it.each([
    [{}, "/home/ada/.stratum"],
    [{ STRATUM_HOME: "" }, "/home/ada/.stratum"],
    [{ STRATUM_HOME: "/srv/stratum" }, "/srv/stratum"],
    [{ STRATUM_HOME: "~" }, "/home/ada"],
    [{ STRATUM_HOME: "~/state" }, "/home/ada/state"],
    [{ STRATUM_HOME: "rel/dir" }, resolve("rel/dir")],
  ])("%j → %s", (env, expected) => {
    expect(stratumHome(env, user)).toBe(expected);
  });
});
