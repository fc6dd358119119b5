// The PostgreSQL store's own behaviour against a real server (docs/guides/team-store.md), beyond
// the FlowStore contract it shares with the other stores (test/interpreter/store/store-contract):
// the journal layout (a delta row per committing call, a snapshot for new, finished and grown
// flows), damaged delta rows refused as flow_corrupt, a read only when the change token differs,
// notifications of other processes' commits
// and of a lost-and-back listener, a flow locked by another server answered state_locked after the
// lock timeout, a commit whose connection is killed retried once it is known not to have happened,
// schema creation by many servers at once, and a schema newer than the program refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgFlowStore } from "../../../host/pg-store/pg-store";
import { SCHEMA_VERSION, SchemaTooNewError } from "../../../host/pg-store/schema";
import type { StratumApi } from "../../../interpreter/api";
import type { StoreChange } from "../../../interpreter/store/store";
import { StaleStateError, StoreLockedError, textWrite } from "../../../interpreter/store/store";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { ensureBundle, stratumc } from "../../cli/run-cli";
import { result } from "../../interpreter/flow/api-fixtures";
import { flowText } from "../../interpreter/store/flow-text";
import { makeTestApi } from "../../interpreter/support/make-test-api";
import { type PgServer, startPostgres } from "../../support/postgres";

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.destroy());

const stores: PgFlowStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});

function database(): { url: string; name: string } {
  const url = server.createDatabase("store");
  return { url, name: new URL(url).pathname.slice(1) };
}

function openStore(url: string, options: ConstructorParameters<typeof PgFlowStore>[1] = {}): PgFlowStore {
  const store = new PgFlowStore(url, options);
  stores.push(store);
  return store;
}

const LINEAR = `version: "0.2"
contracts:
  Out: { v: { type: string } }
functions:
  work: { mode: infer, intent: "do it", input: {}, output: Out }
flows:
  main:
    input: {}
    steps:
      - { id: s1, function: work, inputs: {} }
      - { id: s2, function: work, inputs: {} }
      - { id: s3, function: work, inputs: {} }
      - { id: s4, function: work, inputs: {} }
`;

async function planAndStep(api: StratumApi, steps: readonly string[]): Promise<string> {
  const planned = await api.plan({ spec: LINEAR, flow: "main", inputs: result("{}") });
  const flowId = String(planned.flow_id);
  for (const step of steps) {
    const answer = await api.stepDone({ flow_id: flowId, step_id: step, result: result('{"v": "x"}') });
    expect(answer.status, JSON.stringify(wireToPlain(answer))).not.toBe("error");
  }
  return flowId;
}

function count(db: string, sql: string): number {
  return Number(server.psql(sql, db).trim());
}

describe("the PostgreSQL store's journal", () => {
  it("appends a delta row per call, and writes a snapshot for a new and a finished flow", async () => {
    const { url, name } = database();
    const { api } = makeTestApi({ cwd: "/nowhere", store: openStore(url) });
    const flowId = await planAndStep(api, ["s1", "s2"]);
    expect(count(name, `SELECT count(*) FROM stratum.deltas WHERE flow_id = '${flowId}'`)).toBe(2);
    expect(count(name, `SELECT snapshot_revision FROM stratum.flows WHERE flow_id = '${flowId}'`)).toBe(1);
    await api.stepDone({ flow_id: flowId, step_id: "s3", result: result('{"v": "x"}') });
    await api.stepDone({ flow_id: flowId, step_id: "s4", result: result('{"v": "x"}') }); // finishes
    expect(count(name, `SELECT count(*) FROM stratum.deltas WHERE flow_id = '${flowId}'`)).toBe(0);
    expect(count(name, `SELECT snapshot_revision FROM stratum.flows WHERE flow_id = '${flowId}'`)).toBe(5);
  });

  it("answers flow_corrupt for a flow whose delta rows have a gap, naming the store without password", async () => {
    const { url, name } = database();
    const withPassword = url.replace("postgres@", "postgres:hunter2@");
    const first = makeTestApi({ cwd: "/nowhere", store: openStore(withPassword) });
    const flowId = await planAndStep(first.api, ["s1", "s2", "s3"]);
    server.psql(`DELETE FROM stratum.deltas WHERE flow_id = '${flowId}' AND revision = 3`, name);
    const fresh = makeTestApi({ cwd: "/nowhere", store: openStore(withPassword) });
    const answer = wireToPlain(await fresh.api.audit({ flow_id: flowId })) as Record<string, unknown>;
    expect(answer.error_type).toBe("flow_corrupt");
    expect(String(answer.message)).toContain("delta 2 has revision 4, 3 expected");
    expect(JSON.stringify(answer)).not.toContain("hunter2");
  });
});

describe("notifications", () => {
  it("tells a watching store of another store's commits and removals, and of a listener that was lost", async () => {
    const { url } = database();
    const watcher = openStore(url);
    const writer = openStore(url);
    const heard: StoreChange[] = [];
    const stop = watcher.watch((change) => heard.push(change));
    await watcher.watching();
    const tokens = await writer.commit({ writes: [textWrite("f1", flowText("f1", 1), 0)], deletes: [] });
    await expect.poll(() => heard.length, { timeout: 5000 }).toBe(1);
    expect(heard[0]).toEqual({ flowId: "f1", token: tokens.get("f1") });
    await writer.remove("f1");
    await expect.poll(() => heard.length, { timeout: 5000 }).toBe(2);
    expect(heard[1]).toEqual({ flowId: "f1", token: null });
    server.stop();
    server.start();
    await expect.poll(() => heard.length, { timeout: 15_000 }).toBe(3);
    expect(heard[2]).toEqual({ flowId: null, token: null });
    stop();
  });
});

describe("readIfChanged", () => {
  it("answers unchanged for the token it has, the flow another store committed since, and null once removed", async () => {
    const { url } = database();
    const reader = openStore(url);
    const writer = openStore(url);
    expect(await reader.readIfChanged("f1", "1")).toBeNull();
    const first = await writer.commit({ writes: [textWrite("f1", flowText("f1", 1), 0)], deletes: [] });
    const token = first.get("f1")!;
    expect(await reader.readIfChanged("f1", token)).toBe("unchanged");
    const read = await reader.read("f1");
    // The token of a stale copy: the whole flow comes back, as `read` gives it.
    expect(await reader.readIfChanged("f1", "0")).toEqual(read);
    const second = await writer.commit({ writes: [textWrite("f1", flowText("f1", 2), 1)], deletes: [] });
    const changed = await reader.readIfChanged("f1", token);
    expect(changed).not.toBe("unchanged");
    expect(changed).toMatchObject({ text: flowText("f1", 2), revision: 2, token: second.get("f1") });
    expect(await reader.readIfChanged("f1", second.get("f1")!)).toBe("unchanged");
    await writer.remove("f1");
    expect(await reader.readIfChanged("f1", second.get("f1")!)).toBeNull();
  });
});

/** Runs `body` while another connection holds the commit lock of `flowId` (then releases it). */
async function withFlowLocked(
  url: string,
  flowId: string,
  body: (holder: pg.Client) => Promise<void>,
): Promise<void> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    await holder.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [flowId]);
    await body(holder);
  } finally {
    await holder.end();
  }
}

describe("locks and lost connections", () => {
  it("answers state_locked when another server holds the flow longer than the lock timeout", async () => {
    const { url } = database();
    const store = openStore(url, { lockTimeoutMs: 200 });
    await store.commit({ writes: [textWrite("f1", flowText("f1", 1), 0)], deletes: [] });
    await withFlowLocked(url, "f1", async () => {
      const attempt = store.commit({ writes: [textWrite("f1", flowText("f1", 2), 1)], deletes: [] });
      await expect(attempt).rejects.toBeInstanceOf(StoreLockedError);
    });
    expect((await store.read("f1"))?.revision).toBe(1);
  });

  it("retries a commit whose connection was killed before it was applied", async () => {
    const { url } = database();
    const store = openStore(url);
    await store.commit({ writes: [textWrite("f1", flowText("f1", 1), 0)], deletes: [] });
    await withFlowLocked(url, "f1", async (holder) => {
      const attempt = store.commit({ writes: [textWrite("f1", flowText("f1", 2), 1)], deletes: [] });
      // The commit waits for the lock; its connection is killed, then the lock is released.
      await expect
        .poll(async () => {
          const killed = await holder.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
          );
          return killed.rowCount;
        })
        .toBe(1);
      await holder.query("COMMIT");
      const tokens = await attempt;
      expect(tokens.get("f1")).toBe(await store.token("f1"));
    });
    expect((await store.read("f1"))?.revision).toBe(2);
  });
});

describe("a flow removed by another process", () => {
  /** The next write of f1 as the engine makes it: a delta from the revision it read. */
  const deltaWrite = (expectedRevision: number) => ({
    flowId: "f1",
    text: () => flowText("f1", expectedRevision + 1),
    delta: `{"revision": ${expectedRevision + 1}, "set": {}}`,
    finished: false,
    expectedRevision,
    revision: expectedRevision + 1,
  });

  it.each([
    ["this store remembers it", true],
    ["this store knows nothing of it", false],
  ])("is never written again when %s: stale_state, and it stays removed", async (_name, remembered) => {
    const { url } = database();
    const first = openStore(url);
    await first.commit({ writes: [textWrite("f1", flowText("f1", 1), 0)], deletes: [] });
    const second = openStore(url);
    if (remembered) await second.read("f1");
    expect(await first.remove("f1")).toBe(true);
    const attempt = second.commit({ writes: [deltaWrite(1)], deletes: [] });
    await expect(attempt).rejects.toBeInstanceOf(StaleStateError);
    await expect(attempt).rejects.toThrow(
      "Flow 'f1' was removed by another process; the call was not applied",
    );
    expect(await second.read("f1")).toBeNull();
  });
});

describe("the schema", () => {
  it("is created once when many servers start at the same time", async () => {
    const { url, name } = database();
    await Promise.all(Array.from({ length: 8 }, () => openStore(url).open()));
    expect(count(name, "SELECT version FROM stratum.schema_version")).toBe(SCHEMA_VERSION);
    expect(count(name, "SELECT count(*) FROM stratum.schema_version")).toBe(1);
  });

  it("is refused when it is newer than the program, naming both versions", async () => {
    const { url, name } = database();
    await openStore(url).open();
    server.psql("UPDATE stratum.schema_version SET version = 99", name);
    const store = openStore(url);
    await expect(store.open()).rejects.toBeInstanceOf(SchemaTooNewError);
    await expect(store.read("f1")).rejects.toThrow(
      `has schema version 99, newer than this stratumc knows (${SCHEMA_VERSION}): upgrade stratumc`,
    );
  });

  it("stops the built MCP server and the CLI with one line naming both versions, the password left out", async () => {
    ensureBundle();
    const { url, name } = database();
    await openStore(url).open();
    server.psql("UPDATE stratum.schema_version SET version = 7", name);
    const secret = url.replace("postgres@", "postgres:topsecret@");
    const expected = `the flow store at ${url} has schema version 7, newer than this stratumc knows (${SCHEMA_VERSION}): upgrade stratumc on this machine`;
    const query = stratumc(["query", "flows", "--store", secret]);
    expect(query).toMatchObject({ status: 1, stdout: "", stderr: `stratumc: ${expected}\n` });
    // The server brings $STRATUM_HOME/hooks up to date before it opens the store (the reference's
    // order), saying so in a line of its own when it changed them: a home of the test's own, so
    // the first start's extra line is known and the second start's answer is the one line.
    const home = mkdtempSync(join(tmpdir(), "stratum-pg-schema-home-"));
    try {
      const env = { STRATUM_STORE: secret, STRATUMC_PROG: "stratum-mcp", STRATUM_HOME: home };
      const first = stratumc(["serve"], { env });
      expect(first).toMatchObject({ status: 1, stdout: "" });
      expect(first.stderr).toMatch(/^stratum-mcp: refreshed the hook scripts in .*\n/);
      expect(first.stderr.endsWith(`stratum-mcp: ${expected}\n`)).toBe(true);
      expect(first.stderr).not.toContain("topsecret");
      const serve = stratumc(["serve"], { env });
      expect(serve).toMatchObject({ status: 1, stdout: "", stderr: `stratum-mcp: ${expected}\n` });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
