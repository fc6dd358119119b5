// A flow store that stops answering, or that the server's role may not set up, must hold only the
// calls that need it. Through the built `stratum-mcp` and `stratumc` on a real PostgreSQL whose
// processes are frozen with SIGSTOP (the kernel still accepts connections, nothing answers: a hung
// host or a silent network), and on the file store with a flow's lock held by a live process:
// tools/list, stratum_validate and stratum_fuzz answer at once while a store call waits; the store
// calls answer `store_unavailable` within the store's timeouts; after SIGCONT everything works.
// A role without CREATE gets one clear line (what is missing, which role, what to run), never
// `internal error`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ensureBundle, stratumc } from "../cli/run-cli";
import {
  CHAIN_SPEC,
  type McpOnStore,
  plain,
  startMcp,
  usePostgres,
  withParams,
} from "../host/pg-store/support";
import { startServer, tempDir, unexpectedStderr } from "../mcp/support/server";
import type { PgServer } from "../support/postgres";
import { killHard, SPEC, spawnLockHolder } from "./store-support";

const pg = usePostgres();

/** The store's timeouts in these tests (seconds): short, so a refused call comes quickly. */
const CONNECT_TIMEOUT_S = 1;
const QUERY_TIMEOUT_S = 2;
/**
 * The documented worst case of a call that needs the store (docs/guides/team-store.md, "A database that
 * stops answering"): a statement's wait, then a connection and a statement of the commit's look-up.
 */
const STORE_BOUND_MS = (QUERY_TIMEOUT_S + 2 * CONNECT_TIMEOUT_S) * 1000;
/** A call that needs no store, on a loaded 2-core machine. */
const PROMPT_MS = 1000;
/** Slack for a loaded machine on top of a bound. */
const SLACK_MS = 3000;

const FUZZ_SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Do it"
    input: {}
    output: Out
flows:
  main:
    input: {}
    steps:
      - id: a
        function: work
        inputs: {}
`;

/** The postmaster's pid, from the data directory. */
function postmasterPid(server: PgServer): number {
  return Number(readFileSync(join(server.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
}

/** The postmaster's children (backends, writers) as /proc lists them now. */
function childPids(postmaster: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^[0-9]+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

let frozen: number[] = [];
/**
 * Stops the postmaster first: stopped, it forks no more children, so the list of its children is
 * complete. A child that exits between the listing and its signal (a backend whose connection just
 * closed) needs no stopping.
 */
function freeze(): void {
  const postmaster = postmasterPid(pg());
  process.kill(postmaster, "SIGSTOP");
  frozen = [postmaster];
  for (const pid of childPids(postmaster)) {
    try {
      process.kill(pid, "SIGSTOP");
      frozen.push(pid);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
    }
  }
}
function thaw(): void {
  for (const pid of frozen) {
    try {
      process.kill(pid, "SIGCONT");
    } catch {
      // exited meanwhile
    }
  }
  frozen = [];
}

let server: McpOnStore | null = null;
afterEach(async () => {
  thaw();
  if (server !== null) await server.kill();
  server = null;
}, 30_000);
afterAll(thaw);

async function timed<T>(call: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await call;
  return { value, ms: performance.now() - t0 };
}

/** tools/list, stratum_validate and stratum_fuzz, each timed. */
async function storeFreeCalls(mcp: McpOnStore): Promise<number[]> {
  // The server's answer alone: client.listTools() would also compile every tool's outputSchema
  // on the client's side, which is not what the bound is about.
  const list = await timed(mcp.server.client.request({ method: "tools/list" }, ListToolsResultSchema));
  expect(list.value.tools.map((t) => t.name)).toContain("stratum_validate");
  const validate = await timed(mcp.call("stratum_validate", { spec: FUZZ_SPEC }).then(plain));
  expect(validate.value).toMatchObject({ valid: true });
  const fuzz = await timed(
    mcp.call("stratum_fuzz", { spec: FUZZ_SPEC, runs: 2, time_budget_ms: 200 }).then(plain),
  );
  expect(fuzz.value).toMatchObject({ status: "fuzzed" });
  return [list.ms, validate.ms, fuzz.ms];
}

function expectUnavailable(answer: Record<string, unknown>): void {
  expect(answer).toMatchObject({ status: "error", error_type: "store_unavailable" });
  expect(String(answer.message)).toMatch(
    /^cannot reach the flow store at postgres:\/\/postgres@127\.0\.0\.1:/,
  );
  expect(JSON.stringify(answer)).not.toMatch(/internal|\n\s+at |\.(c?js|ts):\d+/);
}

describe.runIf(process.platform === "linux")("a PostgreSQL store that stops answering (SIGSTOP)", () => {
  it("answers tools/list, validate and fuzz at once, store calls within the bound, then recovers", async () => {
    const url = withParams(pg().createDatabase("frozen"), {
      connect_timeout: String(CONNECT_TIMEOUT_S),
      query_timeout: String(QUERY_TIMEOUT_S),
    });
    server = await startMcp(url);
    const mcp = server;
    const planned = plain(await mcp.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
    const id = String(planned.flow_id);
    const stepDone = (step: string) =>
      mcp.call("stratum_step_done", { flow_id: id, step_id: step, result: { w: step } }).then(plain);
    expect(await stepDone("s1")).toMatchObject({ status: "execute_step", step_id: "s2" });

    freeze();
    // A store call in flight: the calls that need no store do not wait for it.
    const pending = timed(stepDone("s2"));
    for (const ms of await storeFreeCalls(mcp)) expect(ms).toBeLessThan(PROMPT_MS);
    const refused = await pending;
    expectUnavailable(refused.value);
    expect(refused.value.reason).toBe(`no answer within ${QUERY_TIMEOUT_S} s (query_timeout)`);
    expect(refused.ms).toBeLessThan(STORE_BOUND_MS + SLACK_MS);
    const plan = await timed(
      mcp.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }).then(plain),
    );
    expectUnavailable(plan.value);
    expect(plan.value.reason).toMatch(/^no (answer|connection) within [0-9]+ s \((query|connect)_timeout\)$/);
    expect(plan.ms).toBeLessThan(STORE_BOUND_MS + SLACK_MS);
    expect(mcp.server.child.exitCode).toBeNull();

    thaw();
    expect(await stepDone("s2")).toMatchObject({ status: "execute_step", step_id: "s3" });
    expect(await stepDone("s3")).toMatchObject({ status: "execute_step", step_id: "s4" });
    expect(unexpectedStderr(mcp.server.stderr())).toBe("");
    expect(mcp.problems).toEqual([]);
  }, 60_000);

  it("a server started while it is frozen answers initialize, tools/list and validate at once", async () => {
    // A long connect timeout: a start that waited for the store would take all of it.
    const url = withParams(pg().createDatabase("frozenstart"), { connect_timeout: "30" });
    freeze();
    const started = await timed(startMcp(url));
    server = started.value;
    // A node process's start plus initialize on a loaded machine, far from the 30 s.
    expect(started.ms).toBeLessThan(15_000);
    for (const ms of await storeFreeCalls(server)) expect(ms).toBeLessThan(PROMPT_MS);
    thaw();
    const planned = plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
    expect(planned).toMatchObject({ status: "execute_step", step_id: "s1" });
  }, 60_000);
});

describe.runIf(process.platform === "linux")("a file store whose flow is locked by a live process", () => {
  it("answers validate at once while a step_done waits for the lock", async () => {
    ensureBundle();
    const home = tempDir("stratum-hostile-faults-");
    const mcp = await startServer({ cwd: home.path, home: home.path });
    const holder: { child: ReturnType<typeof spawnLockHolder>["child"] | null } = { child: null };
    try {
      const call = (name: string, args: Record<string, unknown>) =>
        mcp.client
          .callTool({ name, arguments: args })
          .then((r) => r.structuredContent as Record<string, unknown>);
      const planned = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} });
      const id = String(planned.flow_id);
      const lock = spawnLockHolder(join(home.path, "flows"), id);
      holder.child = lock.child;
      await lock.locked;
      // The file store waits 2 s for a lock, then answers state_locked.
      const pending = timed(call("stratum_step_done", { flow_id: id, step_id: "a", result: { v: "x" } }));
      const list = await timed(mcp.client.listTools());
      const validate = await timed(call("stratum_validate", { spec: FUZZ_SPEC }));
      expect(validate.value).toMatchObject({ valid: true });
      expect(list.ms).toBeLessThan(PROMPT_MS);
      expect(validate.ms).toBeLessThan(PROMPT_MS);
      const locked = await pending;
      expect(locked.value).toMatchObject({ status: "error", error_type: "state_locked" });
      expect(locked.ms).toBeGreaterThan(validate.ms);
    } finally {
      if (holder.child !== null) await killHard(holder.child);
      await mcp.kill();
      home.dispose();
    }
  }, 60_000);
});

describe("a role that may not create the store's tables", () => {
  /** A database and a login role without CREATE on it (PUBLIC has none since PostgreSQL 15). */
  function restrictedStore(role: string): { url: string; owner: string; database: string } {
    const owner = pg().createDatabase("denied");
    const database = new URL(owner).pathname.slice(1);
    pg().psql(`DROP ROLE IF EXISTS ${role}; CREATE ROLE ${role} LOGIN`);
    pg().psql(`REVOKE CREATE ON DATABASE ${database} FROM PUBLIC`);
    return { url: owner.replace("postgres@", `${role}@`), owner, database };
  }

  it("gets one line from stratumc: what is missing, the role, the grant to run; exit 1", () => {
    ensureBundle();
    const { url, database } = restrictedStore("agent_cli");
    const run = stratumc(["query", "flows", "--store", url]);
    expect(run.stdout).toBe("");
    expect(run.status).toBe(1);
    const lines = run.stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^stratumc: /);
    expect(lines[0]).toContain('role "agent_cli" may not create');
    expect(lines[0]).toContain(`GRANT CREATE ON DATABASE "${database}" TO "agent_cli"`);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at |\.(c?js|ts):\d+/);
  });

  it("a role that may not use tables an owner created is told the three grants, which suffice", async () => {
    ensureBundle();
    const owner = pg().createDatabase("owned");
    const database = new URL(owner).pathname.slice(1);
    expect(stratumc(["query", "flows", "--store", owner]).status).toBe(0); // the owner creates the tables
    pg().psql("DROP ROLE IF EXISTS agent_use; CREATE ROLE agent_use LOGIN");
    pg().psql(`REVOKE CREATE ON DATABASE ${database} FROM PUBLIC`);
    const url = owner.replace("postgres@", "agent_use@");
    const run = stratumc(["query", "flows", "--store", url]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^stratumc: role "agent_use" may not use the tables of the flow store at /);
    expect(run.stderr).toContain('GRANT USAGE ON SCHEMA stratum TO "agent_use"');
    expect(run.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);

    // The statements the line names are all a role needs: plan and step_done commit.
    pg().psql(
      `GRANT USAGE ON SCHEMA stratum TO "agent_use";
       GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA stratum TO "agent_use";
       GRANT USAGE ON ALL SEQUENCES IN SCHEMA stratum TO "agent_use";`,
      database,
    );
    server = await startMcp(url);
    const planned = plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
    expect(planned).toMatchObject({ status: "execute_step", step_id: "s1" });
    const done = plain(
      await server.call("stratum_step_done", {
        flow_id: String(planned.flow_id),
        step_id: "s1",
        result: { w: "x" },
      }),
    );
    expect(done).toMatchObject({ status: "execute_step", step_id: "s2" });
    expect(unexpectedStderr(server.server.stderr())).toBe("");
  }, 60_000);

  it("stratum-mcp says so on stderr, answers the store calls with it, and works once granted", async () => {
    const { url, database } = restrictedStore("agent_mcp");
    server = await startMcp(url);
    const mcp = server;
    expect(plain(await mcp.call("stratum_validate", { spec: FUZZ_SPEC }))).toMatchObject({ valid: true });
    const refused = plain(await mcp.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
    expect(refused).toMatchObject({ status: "error", error_type: "store_unusable" });
    expect(String(refused.message)).toContain(`GRANT CREATE ON DATABASE "${database}" TO "agent_mcp"`);
    const stderr = unexpectedStderr(mcp.server.stderr());
    expect(stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
    expect(stderr).toMatch(/^stratum-mcp: .*role "agent_mcp" may not create/);
    expect(stderr + JSON.stringify(refused)).not.toMatch(/internal error|\n\s+at |\.(c?js|ts):\d+/);

    pg().psql(`GRANT CREATE ON DATABASE ${database} TO agent_mcp`);
    const planned = plain(await mcp.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
    expect(planned).toMatchObject({ status: "execute_step", step_id: "s1" });
    expect(mcp.server.child.exitCode).toBeNull();
  }, 60_000);
});
