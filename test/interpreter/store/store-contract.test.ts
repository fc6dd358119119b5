// The FlowStore contract (docs/reference/runtime.md §14.3), run against every implementation so that tests on
// the MemoryStore mean the same as production on the FileFlowStore: revisions, stale refusal with
// its exact message, all-or-nothing batches, list order, unsafe ids.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { PartitionedFlowStore } from "../../../host/pg-store/partitioned-store";
import { PgFlowStore } from "../../../host/pg-store/pg-store";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { revisionOf } from "../../../interpreter/store/revision";
import { type FlowStore, StaleStateError, textWrite } from "../../../interpreter/store/store";
import { type PgServer, startPostgres } from "../../support/postgres";
import { flowText } from "./flow-text";

let server: PgServer | null = null;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.destroy(), 60_000);

let partitionUrls: string[] | null = null;
function partitionDatabases(): string[] {
  partitionUrls ??= [1, 2, 3].map(() => server!.createDatabase("contract_part"));
  for (const url of partitionUrls) {
    server!.psql(
      "DO $$ BEGIN IF to_regclass('stratum.flows') IS NOT NULL THEN TRUNCATE stratum.flows CASCADE; END IF; END $$",
      new URL(url).pathname.slice(1),
    );
  }
  return partitionUrls;
}

/** Writes a flow's row as another writer would, bypassing the store's revision checks. */
function insertRaw(url: string, id: string, text: string): void {
  const revision = revisionOf(text) ?? 0;
  server!.psql(
    `INSERT INTO stratum.flows (flow_id, snapshot, snapshot_revision, snapshot_chars, revision, change, last_commit, modified_ms)
     VALUES ('${id}', $t$${text}$t$, ${revision}, ${text.length}, ${revision}, nextval('stratum.changes'), 'raw', 0)`,
    new URL(url).pathname.slice(1),
  );
}

interface Subject {
  readonly store: FlowStore;
  /** Stores a text as another writer would (no revision checks), e.g. a reference file. */
  putRaw(flowId: string, text: string): void | Promise<void>;
  dispose(): void | Promise<void>;
}

const subjects: Record<string, () => Subject> = {
  MemoryStore: () => {
    const store = new MemoryStore();
    return { store, putRaw: (id, text) => store.put(id, text), dispose: () => {} };
  },
  FileFlowStore: () => {
    const home = mkdtempSync(join(tmpdir(), "stratum-store-"));
    const store = new FileFlowStore(home);
    return {
      store,
      putRaw: (id, text) => {
        mkdirSync(store.flowsDir, { recursive: true });
        writeFileSync(join(store.flowsDir, `${id}.json`), text);
      },
      dispose: () => rmSync(home, { recursive: true, force: true }),
    };
  },
  PgFlowStore: () => {
    const url = server!.createDatabase("contract");
    const store = new PgFlowStore(url);
    return {
      store,
      putRaw: async (id, text) => {
        await store.open();
        insertRaw(url, id, text);
      },
      dispose: () => store.close(),
    };
  },
  // Three databases on one server (made once, emptied for each test): batches such as "parent and
  // gone" span two of them.
  PartitionedFlowStore: () => {
    const urls = partitionDatabases();
    const store = new PartitionedFlowStore(urls.join(" "));
    return {
      store,
      putRaw: async (id, text) => {
        await store.open();
        insertRaw(urls[store.partitionOf(id)]!, id, text);
      },
      dispose: () => store.close(),
    };
  },
};

const STALE_MESSAGE = (id: string, disk: number, expected: number) =>
  `Flow '${id}' was changed by another process (revision ${disk} on disk, ${expected} expected); the call was not applied — retry it`;

describe.each(Object.keys(subjects))("%s", (name) => {
  let subject: Subject;
  const open = (): FlowStore => {
    subject = subjects[name]!();
    return subject.store;
  };
  afterEach(() => subject?.dispose());

  const write = (flowId: string, expectedRevision: number, payload: string | null = null) =>
    textWrite(flowId, flowText(flowId, expectedRevision + 1, payload), expectedRevision);

  it("has no flow before the first commit", async () => {
    const store = open();
    expect(await store.read("f1")).toBeNull();
    expect(await store.token("f1")).toBeNull();
    expect(await store.list()).toEqual([]);
  });

  it("stores a new flow at revision 1 and returns its change token", async () => {
    const store = open();
    const tokens = await store.commit({ writes: [write("f1", 0, "a")], deletes: [] });
    const stored = await store.read("f1");
    expect(stored).toMatchObject({
      text: flowText("f1", 1, "a"),
      deltas: [],
      revision: 1,
      token: tokens.get("f1"),
    });
    expect(await store.token("f1")).toBe(tokens.get("f1"));
  });

  it("accepts each next revision and changes the token every time", async () => {
    const store = open();
    const t1 = (await store.commit({ writes: [write("f1", 0)], deletes: [] })).get("f1");
    const t2 = (await store.commit({ writes: [write("f1", 1, "bb")], deletes: [] })).get("f1");
    const t3 = (await store.commit({ writes: [write("f1", 2, "ccc")], deletes: [] })).get("f1");
    expect(new Set([t1, t2, t3]).size).toBe(3);
    expect((await store.read("f1"))?.revision).toBe(3);
  });

  it("refuses a write based on an older revision and changes nothing", async () => {
    const store = open();
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    await store.commit({ writes: [write("f1", 1, "newer")], deletes: [] });
    const before = await store.read("f1");
    const attempt = store.commit({ writes: [write("f1", 1, "lost update")], deletes: [] });
    await expect(attempt).rejects.toThrow(new StaleStateError("f1", 2, 1));
    await expect(attempt).rejects.toThrow(STALE_MESSAGE("f1", 2, 1));
    expect(await store.read("f1")).toEqual(before);
  });

  it("refuses to create a flow that already exists", async () => {
    const store = open();
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    await expect(store.commit({ writes: [write("f1", 0)], deletes: [] })).rejects.toThrow(
      STALE_MESSAGE("f1", 1, 0),
    );
  });

  it("applies nothing of a batch when one precondition fails", async () => {
    const store = open();
    await store.commit({ writes: [write("parent", 0), write("gone", 0)], deletes: [] });
    await store.commit({ writes: [write("parent", 1)], deletes: [] }); // someone else moved on
    const parentBefore = await store.read("parent");
    const batch = {
      writes: [write("child", 0, "c"), write("parent", 1, "p")],
      deletes: [{ flowId: "gone", expectedRevision: 1 }],
    };
    await expect(store.commit(batch)).rejects.toThrow(STALE_MESSAGE("parent", 2, 1));
    expect(await store.read("child")).toBeNull();
    expect(await store.read("parent")).toEqual(parentBefore);
    expect((await store.read("gone"))?.revision).toBe(1);
  });

  it("applies a batch of writes and deletes together", async () => {
    const store = open();
    await store.commit({ writes: [write("parent", 0), write("old-child", 0)], deletes: [] });
    const tokens = await store.commit({
      writes: [write("new-child", 0), write("parent", 1)],
      deletes: [{ flowId: "old-child", expectedRevision: 1 }],
    });
    expect([...tokens.keys()]).toEqual(["new-child", "parent"]);
    expect((await store.read("parent"))?.revision).toBe(2);
    expect((await store.read("new-child"))?.revision).toBe(1);
    expect(await store.read("old-child")).toBeNull();
  });

  it("refuses a delete based on an older revision", async () => {
    const store = open();
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    await store.commit({ writes: [write("f1", 1)], deletes: [] });
    await expect(
      store.commit({ writes: [], deletes: [{ flowId: "f1", expectedRevision: 1 }] }),
    ).rejects.toThrow(STALE_MESSAGE("f1", 2, 1));
    expect((await store.read("f1"))?.revision).toBe(2);
  });

  it("treats the delete of a flow that is already gone as done", async () => {
    const store = open();
    expect(await store.commit({ writes: [], deletes: [{ flowId: "nope", expectedRevision: 3 }] })).toEqual(
      new Map(),
    );
  });

  it("continues a file written by the reference (no revision: revision 0)", async () => {
    const store = open();
    const reference = '{\n  "flow_id": "ref",\n  "flow_name": "main"\n}';
    await subject.putRaw("ref", reference);
    expect(await store.read("ref")).toMatchObject({ text: reference, revision: 0 });
    await store.commit({ writes: [write("ref", 0)], deletes: [] });
    expect((await store.read("ref"))?.revision).toBe(1);
  });

  it("lists flows in file-name (code point) order", async () => {
    const store = open();
    for (const id of ["b", "a-b", "a", "A", "_x", "a.b"]) {
      await store.commit({ writes: [write(id, 0)], deletes: [] });
    }
    // "a-b.json" < "a.b.json" < "a.json": '-' (0x2d) < '.' (0x2e), then 'b' < 'j'.
    expect((await store.list()).map((f) => f.flowId)).toEqual(["A", "_x", "a-b", "a.b", "a", "b"]);
  });

  it("refuses a delta write to a flow removed since it was read, and does not bring it back", async () => {
    const store = open();
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    expect(await store.remove("f1")).toBe(true);
    const delta = { ...write("f1", 1), delta: '{"revision": 2, "set": {}}' };
    await expect(store.commit({ writes: [delta], deletes: [] })).rejects.toThrow(
      "Flow 'f1' was removed by another process; the call was not applied",
    );
    expect(await store.read("f1")).toBeNull();
  });

  it("removes a flow once", async () => {
    const store = open();
    await store.commit({ writes: [write("f1", 0)], deletes: [] });
    expect(await store.remove("f1")).toBe(true);
    expect(await store.remove("f1")).toBe(false);
    expect(await store.read("f1")).toBeNull();
  });

  it.each(["../escape", "a/b", "a\\b", ".hidden", "", "x".repeat(129), "é"])(
    "knows no flow with the unsafe id %j",
    async (id) => {
      const store = open();
      expect(await store.read(id)).toBeNull();
      expect(await store.token(id)).toBeNull();
      expect(await store.remove(id)).toBe(false);
      await expect(store.commit({ writes: [write(id, 0)], deletes: [] })).rejects.toThrow(
        `store: '${id}' is not a valid flow id`,
      );
    },
  );

  it("rejects a batch whose text does not carry the next revision", async () => {
    const store = open();
    await expect(
      store.commit({ writes: [textWrite("f1", flowText("f1", 5), 0)], deletes: [] }),
    ).rejects.toThrow("store commit: flow 'f1' is written with revision 5, expected 1");
    expect(await store.read("f1")).toBeNull();
  });

  it("rejects the wrong revision in a batch of two writes as in a batch of one", async () => {
    const store = open();
    await expect(
      store.commit({ writes: [write("f1", 0), textWrite("f2", flowText("f2", 3), 0)], deletes: [] }),
    ).rejects.toThrow("store commit: flow 'f2' is written with revision 3, expected 1");
    expect(await store.read("f1")).toBeNull();
  });

  it("answers readIfChanged with unchanged, the changed flow, or null when it is gone", async () => {
    const store = open();
    if (store.readIfChanged === undefined) return; // optional: the engine asks token, then read
    const first = (await store.commit({ writes: [write("f1", 0, "a")], deletes: [] })).get("f1")!;
    expect(await store.readIfChanged("f1", first)).toBe("unchanged");
    const second = (await store.commit({ writes: [write("f1", 1, "b")], deletes: [] })).get("f1")!;
    expect(await store.readIfChanged("f1", first)).toMatchObject({
      text: flowText("f1", 2, "b"),
      revision: 2,
      token: second,
    });
    expect(await store.readIfChanged("f1", second)).toBe("unchanged");
    await store.remove("f1");
    expect(await store.readIfChanged("f1", second)).toBeNull();
    expect(await store.readIfChanged("nope", first)).toBeNull();
  });

  it("rejects a batch naming a flow twice", async () => {
    const store = open();
    await expect(
      store.commit({ writes: [write("f1", 0)], deletes: [{ flowId: "f1", expectedRevision: 0 }] }),
    ).rejects.toThrow("store commit: a flow appears twice in one batch");
  });
});
