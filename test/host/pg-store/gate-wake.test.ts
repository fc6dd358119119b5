// A gate resolved by one process reaches the others through the PostgreSQL store
// (docs/guides/team-store.md), proven with real processes:
//   (a) `stratumc ui --store postgres://…` with a page's event stream open (/api/events, Bearer
//       token) gets a change event within a few seconds (measured: milliseconds) after a
//       `stratum-mcp` process resolves the gate with stratum_gate_resolve, and /api/flows/<id>
//       then shows the flow past its gate;
//   (b) `stratum-mcp` B, which holds the flow in memory (it answered on it), does not listen to the
//       notifications (neither does A) and sees A's commit at its next call: observed in
//       PostgreSQL's statement log (each server's connections carry their own application_name),
//       B's next call gets the changed flow from the one statement that compares its change token
//       in the database (the control: with no commit in between, that statement alone, answering
//       from memory).
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FlowPage } from "../../../ui/api-types";
import { tempDir } from "../../mcp/support/server";
import type { PgServer } from "../../support/postgres";
import { type RunningUi, startUi } from "../../ui/browser-support";
import {
  chainAtGate,
  databaseOf,
  eventually,
  type McpOnStore,
  plain,
  startMcp,
  unexpectedOf,
  usePostgres,
  withParams,
} from "./support";

const pg = usePostgres();
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 60_000);

async function mcp(url: string): Promise<McpOnStore> {
  const server = await startMcp(url);
  cleanups.push(async () => {
    expect(await server.close()).toBe(0);
    expect(unexpectedOf(server)).toBe("");
    expect(server.problems).toEqual([]);
  });
  return server;
}

/** A flow planned on `server` and driven to its gate. */
async function flowAtGate(server: McpOnStore): Promise<string> {
  const id = await chainAtGate(server);
  expect(plain(await server.call("stratum_resume", { flow_id: id }))).toMatchObject({ status: "await_gate" });
  return id;
}

const approve = (server: McpOnStore, id: string) =>
  server
    .call("stratum_gate_resolve", {
      flow_id: id,
      step_id: "approve",
      outcome: "approve",
      rationale: "from another process",
      resolved_by: "human",
    })
    .then(plain);

/** Whether a connection with this application_name is LISTENing on the database. */
function listening(server: PgServer, database: string, application: string): boolean {
  const rows = server.psql(
    `SELECT count(*) FROM pg_stat_activity WHERE datname = '${database}' AND application_name = '${application}' AND query LIKE 'LISTEN %'`,
  );
  return Number(rows.trim()) > 0;
}

/** The change events of /api/events as they arrive (the time each was seen). */
async function openEvents(ui: RunningUi): Promise<{ readonly seen: number[]; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${ui.origin}/api/events`, {
    headers: { Authorization: `Bearer ${ui.token}` },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const seen: number[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let text = "";
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
      for (let at = text.indexOf("event: change\n"); at !== -1; at = text.indexOf("event: change\n")) {
        seen.push(Date.now());
        text = text.slice(at + 1);
      }
    }
  })();
  return { seen, close: () => abort.abort() };
}

describe("a gate resolved by one process wakes the others", () => {
  it("(a) stratumc ui's event stream hears of it and its flow page shows it", async () => {
    const url = pg().createDatabase("wake");
    const a = await mcp(url);
    const id = await flowAtGate(a);
    const home = tempDir("stratum-pg-ui-home-");
    const ui = await startUi(home.path, ["--store", withParams(url, { application_name: "ui" })]);
    cleanups.push(async () => {
      await ui.stop();
      home.dispose();
    });
    const events = await openEvents(ui);
    cleanups.push(async () => events.close());
    // The page's listener is in place (a commit before it would not be heard by anyone).
    expect(await eventually(() => listening(pg(), databaseOf(url), "ui"), 30_000)).toBe(true);
    const page = async (): Promise<FlowPage> => {
      const r = await fetch(`${ui.origin}/api/flows/${id}`, {
        headers: { Authorization: `Bearer ${ui.token}` },
      });
      expect(r.status).toBe(200);
      return (await r.json()) as FlowPage;
    };
    expect((await page()).flow).toMatchObject({ status: "awaiting_gate", current_step_id: "approve" });

    const before = events.seen.length;
    const t0 = Date.now();
    expect(await approve(a, id)).toMatchObject({ status: "complete" });
    expect(await eventually(() => events.seen.length > before, 5_000), "a change event").toBe(true);
    const ms = events.seen[before]! - t0;
    const shown = await page();
    expect(shown.flow).toMatchObject({ status: "complete", current_step_id: null });
    expect(shown.audit.at(-1)).toMatchObject({ step_id: "approve", outcome: "approve" });
    // Only the line naming the store (without its password) that `stratumc ui` prints at start.
    expect(ui.stderr()).toMatch(
      /^stratumc ui: the flows of postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+;[^\n]*\n$/,
    );
    process.stderr.write(
      `gate-wake test: the ui's change event came ${ms} ms after the gate_resolve answer\n`,
    );
  }, 120_000);

  it("(b) the other MCP server does not listen, and sees A's commit at its next call", async () => {
    const url = pg().createDatabase("drop");
    const database = databaseOf(url);
    // Every statement of this database's connections is logged with its application_name.
    pg().psql("ALTER SYSTEM SET log_line_prefix = '%a|'");
    pg().psql("SELECT pg_reload_conf()");
    pg().psql(`ALTER DATABASE ${database} SET log_statement = 'all'`);
    const a = await mcp(withParams(url, { application_name: "srvA" }));
    const b = await mcp(withParams(url, { application_name: "srvB" }));
    const id = await flowAtGate(a);
    const log = join(pg().dataDir, "server.log");
    let marks = 0;
    /** B's statements (the first line of each) during `body`. */
    const statementsOfB = async (body: () => Promise<void>): Promise<string[]> => {
      const from = statSync(log).size;
      await body();
      // A statement of the test's own, logged after all of B's: once it is there, so are they.
      const mark = `mark-${++marks}`;
      pg().psql(`SELECT '${mark}'`, database);
      const text = () => readFileSync(log).subarray(from).toString("utf8");
      expect(await eventually(() => text().includes(mark), 10_000)).toBe(true);
      return text()
        .split("\n")
        .filter((l) => l.startsWith("srvB|LOG:"));
    };
    // Prepared statements are logged by name (`execute <name>: …`).
    const statement = (name: string) => (l: string) => l.includes(`execute ${name}:`);
    const audit = () => b.call("stratum_audit", { flow_id: id }).then(plain);
    const flowStatements = (lines: string[]) =>
      lines.filter((l) => l.includes("execute ") || l.includes("statement: "));

    // B loads the flow, then (control) answers again from memory after one statement that
    // compares the change token in the database and sends nothing more back.
    expect(await audit()).toMatchObject({ status: "in_progress" });
    const held = await statementsOfB(async () => {
      expect(await audit()).toMatchObject({ status: "in_progress" });
    });
    expect(flowStatements(held), held.join("\n")).toHaveLength(1);
    expect(held.filter(statement("stratum_read_changed")), held.join("\n")).toHaveLength(1);
    // No LISTEN: a listening connection would cost the database a transaction per commit of any server.
    expect(listening(pg(), database, "srvB")).toBe(false);
    expect(listening(pg(), database, "srvA")).toBe(false);

    // A resolves the gate; B's next call gets the changed flow from that same one statement.
    expect(await approve(a, id)).toMatchObject({ status: "complete" });
    const after = await statementsOfB(async () => {
      expect(await audit()).toMatchObject({ status: "complete" });
    });
    expect(flowStatements(after), after.join("\n")).toHaveLength(1);
    expect(after.filter(statement("stratum_read_changed")), after.join("\n")).toHaveLength(1);
    pg().psql(`ALTER DATABASE ${database} RESET log_statement`);
  }, 120_000);
});
