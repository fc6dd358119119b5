// The store on several PostgreSQL databases (host/pg-store/partitioned-store.ts) against three
// real databases on one server: each flow in the database its id hashes to and nowhere else, the
// list merged, commits spanning two databases applied together or not at all (a stale flow or a
// locked one on the second database leaves the first untouched), changes heard from every
// database (LISTEN, and polling forced with `changes=poll`), and a list that changed refused.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateFlows } from "../../../cli/flows/migrate";
import { PartitionLayoutError } from "../../../host/pg-store/partition-layout";
import { PartitionedFlowStore } from "../../../host/pg-store/partitioned-store";
import { PgFlowStore } from "../../../host/pg-store/pg-store";
import { acceptsListen } from "../../../host/pg-store/polled-changes";
import { StoreUrlError } from "../../../host/pg-store/store-url";
import { storeAt } from "../../../host/store-at";
import {
  StaleStateError,
  type StoreChange,
  StoreLockedError,
  textWrite,
} from "../../../interpreter/store/store";
import { flowText } from "../../interpreter/store/flow-text";
import { type PgServer, startPostgres } from "../../support/postgres";
import { databaseOf, eventually } from "./support";

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.destroy(), 60_000);

const stores: PartitionedFlowStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});

function open(list: readonly string[], pollIntervalMs?: number): PartitionedFlowStore {
  const store = new PartitionedFlowStore(list.join(" "), {
    lockTimeoutMs: 300,
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
  });
  stores.push(store);
  return store;
}

/**
 * `count` flow ids `prefix-0`, `prefix-1`, … chosen so that every database of `store` holds one at
 * least: the databases' names (and so the placement) differ from run to run.
 */
function spread(store: PartitionedFlowStore, prefix: string, count: number): string[] {
  const candidates = Array.from({ length: 1000 }, (_, i) => `${prefix}-${i}`);
  const firsts = new Map<number, string>();
  for (const id of candidates) if (!firsts.has(store.partitionOf(id))) firsts.set(store.partitionOf(id), id);
  const ids = [...firsts.values()];
  for (const id of candidates) {
    if (ids.length >= count) break;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

function databases(n: number): string[] {
  return Array.from({ length: n }, () => server.createDatabase("part"));
}

const write = (flowId: string, expectedRevision: number, payload: string | null = null) =>
  textWrite(flowId, flowText(flowId, expectedRevision + 1, payload), expectedRevision);

/** The ids stored in one database, read with psql. */
function idsIn(url: string): string[] {
  const out = server.psql("SELECT flow_id FROM stratum.flows ORDER BY flow_id", databaseOf(url)).trim();
  return out === "" ? [] : out.split("\n");
}

/** Two ids the store puts in different databases. */
function idsApart(store: PartitionedFlowStore, prefix: string): [string, string] {
  const first = `${prefix}-0`;
  for (let k = 1; ; k++) {
    const other = `${prefix}-${k}`;
    if (store.partitionOf(other) !== store.partitionOf(first)) return [first, other];
  }
}

describe("flows partitioned by id across databases", () => {
  it("stores each flow in the database its id hashes to, and lists them all in order", async () => {
    const urls = databases(3);
    const store = open(urls);
    const ids = Array.from({ length: 24 }, (_, k) => `flow-${k}`);
    for (const id of ids) await store.commit({ writes: [write(id, 0)], deletes: [] });
    const where = urls.map(idsIn);
    for (const id of ids) {
      expect(where.map((list) => list.includes(id))).toEqual(urls.map((_, i) => i === store.partitionOf(id)));
    }
    expect(where.every((list) => list.length > 0)).toBe(true);
    expect((await store.list()).map((f) => f.flowId)).toEqual(
      [...ids].sort((a, b) => (`${a}.json` < `${b}.json` ? -1 : 1)),
    );
    // Another server with the same databases listed in another order finds every flow.
    const other = open([urls[2]!, urls[0]!, urls[1]!]);
    for (const id of ids) expect((await other.read(id))?.revision).toBe(1);
    expect(await other.remove(ids[0]!)).toBe(true);
    expect(await store.read(ids[0]!)).toBeNull();
  });

  it("commits a batch spanning two databases together, and refuses it whole when one flow is stale", async () => {
    const store = open(databases(2));
    const [parent, child] = idsApart(store, "span");
    await store.commit({ writes: [write(child, 0), write(parent, 0)], deletes: [] });
    expect((await store.read(parent))?.revision).toBe(1);
    expect((await store.read(child))?.revision).toBe(1);
    await store.commit({ writes: [write(child, 1, "c2"), write(parent, 1, "p2")], deletes: [] });
    // Another server moves the parent on; a batch based on the old parent changes neither.
    await store.commit({ writes: [write(parent, 2, "elsewhere")], deletes: [] });
    const attempt = store.commit({
      writes: [write(child, 2, "lost"), write(parent, 2, "lost")],
      deletes: [],
    });
    await expect(attempt).rejects.toBeInstanceOf(StaleStateError);
    const stored = await store.read(child);
    expect(stored?.revision).toBe(2);
    expect(stored?.text).toContain("c2");
    // Writes and a delete on different databases.
    await store.commit({
      writes: [write(parent, 3, "p4")],
      deletes: [{ flowId: child, expectedRevision: 2 }],
    });
    expect(await store.read(child)).toBeNull();
    expect((await store.read(parent))?.revision).toBe(4);
  });

  it("answers state_locked and writes nothing when a flow of the second database is locked", async () => {
    const urls = databases(2);
    const store = open(urls);
    const [a, b] = idsApart(store, "lock");
    await store.commit({ writes: [write(a, 0), write(b, 0)], deletes: [] });
    const holder = new pg.Client({ connectionString: urls[store.partitionOf(b)] });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [b]);
      const attempt = store.commit({ writes: [write(a, 1, "a2"), write(b, 1, "b2")], deletes: [] });
      await expect(attempt).rejects.toBeInstanceOf(StoreLockedError);
      expect((await store.read(a))?.revision).toBe(1);
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    await store.commit({ writes: [write(a, 1, "a2"), write(b, 1, "b2")], deletes: [] });
    expect((await store.read(b))?.revision).toBe(2);
  });

  for (const mode of ["listen", "poll"] as const) {
    it(`hears every database's commits and removals (changes=${mode})`, async () => {
      const urls = databases(3);
      const watcher = open(
        urls.map((u) => `${u}?changes=${mode}`),
        100,
      );
      const writer = open(urls);
      await writer.open();
      const heard: StoreChange[] = [];
      const stop = watcher.watch((c) => heard.push(c));
      try {
        // Listening, or (polling) the first read of each database done: changes are what comes after.
        await watcher.watching();
        const ids = spread(writer, "w", 8);
        for (const id of ids) await writer.commit({ writes: [write(id, 0)], deletes: [] });
        expect(new Set(ids.map((id) => writer.partitionOf(id))).size).toBe(3);
        const seen = (id: string, removed: boolean) =>
          heard.some((c) => c.flowId === id && (c.token === null) === removed);
        // Polling hears states, not each change: a flow made and removed between two reads is not
        // heard at all, so the removal comes once the flow was heard.
        const created = await eventually(() => ids.every((id) => seen(id, false)), 10_000);
        expect(created, JSON.stringify(heard)).toBe(true);
        await writer.remove(ids[0]!);
        expect(await eventually(() => seen(ids[0]!, true), 10_000), JSON.stringify(heard)).toBe(true);
      } finally {
        stop();
      }
    });
  }

  it("checks a token and reloads in the flow's own database (readIfChanged)", async () => {
    const urls = databases(3);
    const reader = open(urls);
    const writer = open(urls);
    const ids = spread(writer, "r", 6);
    for (const id of ids) {
      expect(await reader.readIfChanged(id, "1")).toBeNull();
      const token = (await writer.commit({ writes: [write(id, 0)], deletes: [] })).get(id)!;
      expect(await reader.readIfChanged(id, token)).toBe("unchanged");
      const next = (await writer.commit({ writes: [write(id, 1)], deletes: [] })).get(id)!;
      expect(await reader.readIfChanged(id, token)).toMatchObject({ revision: 2, token: next });
      await writer.remove(id);
      expect(await reader.readIfChanged(id, next)).toBeNull();
    }
    expect(new Set(ids.map((id) => writer.partitionOf(id))).size).toBeGreaterThan(1);
  });

  it("polls one database given alone with changes=poll, without a LISTEN connection", async () => {
    const [url] = databases(1);
    const { store } = storeAt(`${url}?changes=poll`, "/");
    expect(store).toBeInstanceOf(PgFlowStore);
    const writer = new PgFlowStore(url!);
    const heard: StoreChange[] = [];
    store.watch?.((c) => heard.push(c));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await writer.commit({ writes: [write("polled", 0)], deletes: [] });
      expect(await eventually(() => heard.some((c) => c.flowId === "polled"), 10_000)).toBe(true);
      // LISTEN was not used: no listener connection of this store.
      const listeners = server.psql(
        `SELECT count(*) FROM pg_stat_activity WHERE datname = '${databaseOf(url!)}' AND application_name = 'stratumc listener'`,
      );
      expect(listeners.trim()).toBe("0");
    } finally {
      await store.close?.();
      await writer.close();
    }
  });

  it("probes LISTEN: PostgreSQL accepts it", async () => {
    expect(await acceptsListen(databases(1)[0]!)).toBe(true);
  });

  it("refuses a list that changed, naming the databases, and changes nothing", async () => {
    const urls = databases(3);
    const first = open(urls);
    await first.commit({ writes: [write("kept", 0)], deletes: [] });
    const grown = open([...urls, ...databases(1)]);
    await expect(grown.open()).rejects.toBeInstanceOf(PartitionLayoutError);
    await expect(grown.read("kept")).rejects.toThrow(/was set up as .* and the store list now names \[/);
    const shrunk = open(urls.slice(0, 2));
    await expect(shrunk.list()).rejects.toThrow(/flows would be looked for in the wrong database/);
    // The first list still works, and the flow is where it was.
    expect((await first.read("kept"))?.revision).toBe(1);
    expect(urls.flatMap(idsIn)).toEqual(["kept"]);
  });

  it("refuses a database that holds flows from before it was in a list", async () => {
    const [alone, fresh] = databases(2);
    const single = new PgFlowStore(alone!);
    await single.commit({ writes: [write("old", 0)], deletes: [] });
    await single.close();
    const store = open([alone!, fresh!]);
    await expect(store.open()).rejects.toThrow(
      /holds 1 flow stored before it was one of a list of databases/,
    );
  });

  it("copies the flows of one database into a list of new ones with flows migrate", async () => {
    const [alone, ...fresh] = databases(3);
    const single = new PgFlowStore(alone!);
    const ids = Array.from({ length: 8 }, (_, k) => `m-${k}`);
    for (const id of ids) await single.commit({ writes: [write(id, 0, id)], deletes: [] });
    await single.close();
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) };
    const request = { from: alone!, to: fresh.join(" "), dryRun: false, cwd: "/" };
    expect(await migrateFlows(request, io)).toEqual({ migrated: 8, alreadyThere: 0, failed: 0 });
    const list = open(fresh);
    for (const id of ids) expect((await list.read(id))?.text).toContain(id);
    expect(fresh.map(idsIn).map((held) => held.length > 0)).toEqual([true, true]);
    expect(fresh.flatMap(idsIn).sort()).toEqual(ids);
    // Again: every flow is already there.
    expect(await migrateFlows(request, io)).toEqual({ migrated: 0, alreadyThere: 8, failed: 0 });
  });

  it("refuses a list naming one database twice", () => {
    const [url] = databases(1);
    expect(() => new PartitionedFlowStore(`${url} ${url}`)).toThrow(StoreUrlError);
    expect(() => new PartitionedFlowStore(`${url} /tmp/flows`)).toThrow(/must be a postgres:\/\/ URL/);
  });
});
