// What the PostgreSQL flow store (host/pg-store/pg-store.ts, STRATUM_STORE=
// postgres://…) costs a tool call against the file store, and how it carries several servers.
// The built bin/stratum-mcp.cjs over stdio (bench/lib/line-client.ts), the durable bench's flow
// (bench/durable-call-bench.ts: plain function steps with a four-field output contract, ~200-byte
// results), a real temporary PostgreSQL server with fsync on (test/support/postgres.ts, durable:
// true, so its WAL flush is weighed against the file store's fdatasync) and STRATUM_HOME in a
// temporary directory on the same file system. Two parts:
//
//   1. Latency: one server on the file store, one on a fresh database, each finishing its own
//      1,000-step flow, one step_done on each per round, the order alternating; 50 warm-up rounds
//      then 950. p50 and p99 of each; ratio = PostgreSQL ÷ file store.
//   2. Throughput: calls per second of step_done with 4 servers on one fresh database, each driving
//      its own 100-step flows back to back (every call awaited before the next, so 4 calls in
//      flight); the same number of calls from 1 server on a database of its own (ratio = 4 servers
//      ÷ 1 server: the scaling); and 4 servers on one STRATUM_HOME (ratio = PostgreSQL ÷ file
//      store). Flows are planned before the clock starts. One warm-up round, then 3 rounds of the
//      three set-ups in rotating order; each figure is the median over rounds.
//   3. In process, without MCP (bench/pg-engine-bench.ts): step_done calls per second through the
//      engine API on PostgreSQL (synchronous_commit on, and off on the database) and on the file
//      store, with 1 engine and with 4 engines in one process.
import * as fs from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type PgServer, startPostgres } from "../test/support/postgres";
import { longFlowSpec, stepResult } from "./durable-call-bench";
import { type LineServer, startLineServer } from "./lib/line-client";
import { median, percentile } from "./lib/stats";
import type { Row } from "./lib/table";
import { benchPgEngine, describePgEngine, type PgEngineSummary, pgEngineRows } from "./pg-engine-bench";

/** Part 1: the flow each of the two servers finishes, and the warm-up rounds. */
const LATENCY_STEPS = 1_000;
const LATENCY_WARMUP = 50;
const LATENCY_ROUNDS = LATENCY_STEPS - LATENCY_WARMUP;

/** Part 2: servers of the concurrent set-ups, steps of each flow, calls per set-up and round. */
const SERVERS = 4;
const FLOW_STEPS = 100;
const CALLS = 400;
const THROUGHPUT_ROUNDS = 3;
const THROUGHPUT_WARMUP = 1;

const INPUTS = { topic: "a flow store shared by servers" };

interface Percentiles {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface PgStoreSummary {
  readonly cpus: number;
  readonly latency: {
    readonly steps: number;
    readonly warmup: number;
    readonly rounds: number;
    readonly file: Percentiles;
    readonly postgres: Percentiles;
  };
  readonly throughput: {
    readonly servers: number;
    readonly flowSteps: number;
    readonly calls: number;
    readonly rounds: number;
    /** Median calls per second over rounds, per set-up. */
    readonly postgres4: number;
    readonly postgres1: number;
    readonly file4: number;
  };
  /** Part 3: in process, without MCP. */
  readonly inProcess: PgEngineSummary;
}

export interface PgStoreBench {
  readonly rows: Row[];
  readonly summary: PgStoreSummary;
}

/** A flow being finished on one server: step_done `done + 1` is next. */
interface Flow {
  readonly server: LineServer;
  readonly flowId: string;
  readonly steps: number;
  done: number;
}

function startMcp(repoDir: string, cwd: string, env: NodeJS.ProcessEnv): Promise<LineServer> {
  return startLineServer([join(repoDir, "bin/stratum-mcp.cjs")], cwd, env, "stratumc-pg-store-bench");
}

async function stopAll(servers: readonly LineServer[]): Promise<void> {
  for (const s of servers) s.child.stdin?.end();
  await Promise.all(servers.map((s) => s.exited));
}

async function plan(server: LineServer, steps: number): Promise<Flow> {
  const answer = await server.client.callTool("stratum_plan", {
    spec: longFlowSpec(steps),
    flow: "main",
    inputs: INPUTS,
  });
  if (answer.status !== "execute_step")
    throw new Error(`pg-store bench: plan answered '${String(answer.status)}'`);
  return { server, flowId: String(answer.flow_id), steps, done: 0 };
}

/** The flow's next step_done, its answer checked. */
async function stepDone(flow: Flow): Promise<void> {
  const n = flow.done + 1;
  const answer = await flow.server.client.callTool("stratum_step_done", {
    flow_id: flow.flowId,
    step_id: `s${n - 1}`,
    result: stepResult(n),
  });
  const expected = n === flow.steps ? "complete" : "execute_step";
  if (answer.status !== expected)
    throw new Error(`pg-store bench: step_done ${n} answered '${String(answer.status)}'`);
  flow.done = n;
}

function percentiles(samples: readonly number[]): Percentiles {
  return { p50Ms: median(samples), p99Ms: percentile(samples, 99) };
}

function flowsIn(pg: PgServer, url: string): number {
  return Number(pg.psql("SELECT count(*) FROM stratum.flows", new URL(url).pathname.slice(1)).trim());
}

async function benchLatency(repoDir: string, pg: PgServer, root: string): Promise<PgStoreSummary["latency"]> {
  const url = pg.createDatabase("pg_store_latency");
  const servers: LineServer[] = [];
  try {
    servers.push(await startMcp(repoDir, root, { STRATUM_HOME: join(root, "latency-home") }));
    servers.push(await startMcp(repoDir, root, { STRATUM_STORE: url }));
    const flows = [await plan(servers[0]!, LATENCY_STEPS), await plan(servers[1]!, LATENCY_STEPS)];
    const samples: number[][] = [[], []];
    for (let r = -LATENCY_WARMUP; r < LATENCY_ROUNDS; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      for (const k of order) {
        const t0 = performance.now();
        await stepDone(flows[k]!);
        const ms = performance.now() - t0;
        if (r >= 0) samples[k]!.push(ms);
      }
    }
    if (flowsIn(pg, url) !== 1) throw new Error("pg-store bench: the flow is not in the database");
    return {
      steps: LATENCY_STEPS,
      warmup: LATENCY_WARMUP,
      rounds: LATENCY_ROUNDS,
      file: percentiles(samples[0]!),
      postgres: percentiles(samples[1]!),
    };
  } finally {
    await stopAll(servers);
  }
}

/**
 * Calls per second of CALLS step_done over `servers`, each finishing its share of FLOW_STEPS-step
 * flows back to back (planned before the clock starts).
 */
async function callsPerSecond(servers: readonly LineServer[]): Promise<number> {
  const perServer = CALLS / servers.length / FLOW_STEPS;
  const queues: Flow[][] = [];
  for (const server of servers) {
    const queue: Flow[] = [];
    for (let i = 0; i < perServer; i++) queue.push(await plan(server, FLOW_STEPS));
    queues.push(queue);
  }
  const t0 = performance.now();
  await Promise.all(
    queues.map(async (queue) => {
      for (const flow of queue) while (flow.done < flow.steps) await stepDone(flow);
    }),
  );
  return CALLS / ((performance.now() - t0) / 1000);
}

async function benchThroughput(
  repoDir: string,
  pg: PgServer,
  root: string,
): Promise<PgStoreSummary["throughput"]> {
  if (CALLS % (SERVERS * FLOW_STEPS) !== 0) throw new Error("pg-store bench: CALLS must split into flows");
  const shared = pg.createDatabase("pg_store_shared");
  const alone = pg.createDatabase("pg_store_alone");
  const all: LineServer[] = [];
  const start = async (env: NodeJS.ProcessEnv): Promise<LineServer> => {
    const server = await startMcp(repoDir, root, env);
    all.push(server);
    return server;
  };
  try {
    const setups: { readonly servers: LineServer[]; readonly perSecond: number[] }[] = [];
    const postgres4: LineServer[] = [];
    for (let i = 0; i < SERVERS; i++) postgres4.push(await start({ STRATUM_STORE: shared }));
    const postgres1 = [await start({ STRATUM_STORE: alone })];
    const file4: LineServer[] = [];
    for (let i = 0; i < SERVERS; i++) file4.push(await start({ STRATUM_HOME: join(root, "shared-home") }));
    setups.push({ servers: postgres4, perSecond: [] });
    setups.push({ servers: postgres1, perSecond: [] });
    setups.push({ servers: file4, perSecond: [] });
    for (let r = -THROUGHPUT_WARMUP; r < THROUGHPUT_ROUNDS; r++) {
      const shift = (r + THROUGHPUT_WARMUP) % setups.length;
      for (let k = 0; k < setups.length; k++) {
        const setup = setups[(k + shift) % setups.length]!;
        const rate = await callsPerSecond(setup.servers);
        if (r >= 0) setup.perSecond.push(rate);
      }
    }
    const flows = (THROUGHPUT_WARMUP + THROUGHPUT_ROUNDS) * (CALLS / FLOW_STEPS);
    if (flowsIn(pg, shared) !== flows || flowsIn(pg, alone) !== flows)
      throw new Error("pg-store bench: the flows are not in the databases");
    return {
      servers: SERVERS,
      flowSteps: FLOW_STEPS,
      calls: CALLS,
      rounds: THROUGHPUT_ROUNDS,
      postgres4: median(setups[0]!.perSecond),
      postgres1: median(setups[1]!.perSecond),
      file4: median(setups[2]!.perSecond),
    };
  } finally {
    await stopAll(all);
  }
}

function pgStoreRows(s: PgStoreSummary): Row[] {
  const l = s.latency;
  const t = s.throughput;
  const n = (x: number) => x.toLocaleString("en-US");
  const at = `steps ${n(l.warmup + 1)}–${n(l.steps)} of a ${n(l.steps)}-step flow`;
  const row = (metric: string, median: number, baseline: number | null = null): Row => ({
    metric,
    median,
    baseline,
    ratio: baseline === null ? null : median / baseline,
    target: null,
  });
  return [
    row(`pg store: MCP step_done p50 ms, file store, ${at}`, l.file.p50Ms),
    row(
      "pg store: MCP step_done p50 ms, PostgreSQL (fsync on) (baseline: file store, same rounds)",
      l.postgres.p50Ms,
      l.file.p50Ms,
    ),
    row("pg store: MCP step_done p99 ms, file store", l.file.p99Ms),
    row("pg store: MCP step_done p99 ms, PostgreSQL (baseline: file store)", l.postgres.p99Ms, l.file.p99Ms),
    row(
      `pg store: step_done calls/s, 1 server on PostgreSQL (${n(t.calls)} calls, ${t.flowSteps}-step flows, median of ${t.rounds})`,
      t.postgres1,
    ),
    row(
      `pg store: step_done calls/s, ${t.servers} servers on one PostgreSQL database (baseline: 1 server; ratio = scaling, higher is better)`,
      t.postgres4,
      t.postgres1,
    ),
    row(`pg store: step_done calls/s, ${t.servers} servers on one STRATUM_HOME (file store)`, t.file4),
    row(
      `pg store: step_done calls/s, ${t.servers} servers, PostgreSQL (baseline: file store, ${t.servers} servers; ratio higher is better)`,
      t.postgres4,
      t.file4,
    ),
    ...pgEngineRows(s.inProcess),
  ];
}

export async function benchPgStore(repoDir: string): Promise<PgStoreBench> {
  const root = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "stratumc-pg-store-bench-")));
  const pg = await startPostgres({ durable: true });
  try {
    process.stderr.write("pg store: step_done latency, file store vs PostgreSQL…\n");
    const latency = await benchLatency(repoDir, pg, root);
    process.stderr.write(`pg store: calls/s with ${SERVERS} servers…\n`);
    const throughput = await benchThroughput(repoDir, pg, root);
    process.stderr.write("pg store: calls/s in process, without MCP…\n");
    const inProcess = await benchPgEngine(pg, root);
    const summary: PgStoreSummary = { cpus: cpus().length, latency, throughput, inProcess };
    return { rows: pgStoreRows(summary), summary };
  } finally {
    pg.destroy();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The paragraph printed under the table. */
export function describePgStore(s: PgStoreSummary): string {
  const l = s.latency;
  const t = s.throughput;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  return (
    `PostgreSQL store (fsync on) against the file store, built stratum-mcp over stdio: step_done ` +
    `p50 ${l.postgres.p50Ms.toFixed(2)} vs ${l.file.p50Ms.toFixed(2)} ms (${ratio(l.postgres.p50Ms, l.file.p50Ms)}), ` +
    `p99 ${l.postgres.p99Ms.toFixed(2)} vs ${l.file.p99Ms.toFixed(2)} ms (${ratio(l.postgres.p99Ms, l.file.p99Ms)}), ` +
    `one ${l.steps.toLocaleString("en-US")}-step flow on each, ${l.rounds} alternating rounds after ${l.warmup} warm-up. ` +
    `Throughput (${t.calls} step_done per set-up and round, ${t.flowSteps}-step flows, median of ${t.rounds} ` +
    `rotating rounds after ${THROUGHPUT_WARMUP} warm-up, ${s.cpus} CPUs): ${t.servers} servers on one database ` +
    `${t.postgres4.toFixed(0)} calls/s, 1 server ${t.postgres1.toFixed(0)} (scaling ${ratio(t.postgres4, t.postgres1)}), ` +
    `${t.servers} servers on one STRATUM_HOME ${t.file4.toFixed(0)} (PostgreSQL ÷ file ${ratio(t.postgres4, t.file4)}).\n` +
    describePgEngine(s.inProcess)
  );
}
