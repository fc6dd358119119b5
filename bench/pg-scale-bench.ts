// A load harness for the shared PostgreSQL store (STRATUM_STORE=postgres://…): N built stratum-mcp
// servers on one database, M flows driven at once by MCP SDK clients in this process (the flow of
// bench/pg-scale-flow.ts: a parallel step, a retried ensure, a gate resolved by a client of the next
// server, a poll), on a real PostgreSQL with fsync on started here (test/support/postgres.ts).
// Per point: calls/s over the run, p50/p99 per tool, connections to the database (pg_stat_activity,
// one psql at a time, at least 250 ms apart), WAL writes and flushes per call (pg_stat_wal deltas),
// commits per call, CPU per call of the servers, the clients and PostgreSQL (/proc), errors (each
// printed with its tool and code), the load average, and the statements that took the most database
// time (pg_stat_statements). The default curve is N ∈ {1, 4, 20} × M ∈ {50, 200} over stdio plus
// 4 × 200 on the HTTP team server, with keep-alive and with `Connection: close`;
// STRATUMC_PG_SCALE=50x500,4x200http,4x200httpclose replaces it. Then "many writers on one flow"
// (bench/pg-scale-writers.ts; STRATUMC_PG_SCALE_WRITERS flows, default 40). Everything is torn down even on failure; each point is bounded in
// time.
import * as fs from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type PgServer, startPostgres } from "../test/support/postgres";
import { type BenchServer, startHttpServer, startStdioServer } from "./lib/mcp-servers";
import {
  databaseOf,
  psqlAsync,
  sampleConnections,
  type TopStatement,
  topStatements,
  untilDisconnected,
  walCounters,
} from "./lib/pg-stats";
import { cpuSecondsOf, postgresCpuSeconds } from "./lib/proc-cpu";
import { median, percentile } from "./lib/stats";
import type { Row } from "./lib/table";
import { type CallError, CallLog, driveFlow, type ToolCaller } from "./pg-scale-flow";
import { benchWriters, type WritersSummary } from "./pg-scale-writers";

/** `http-close`: the HTTP team server, every request with `Connection: close` (no keep-alive reuse). */
type Transport = "stdio" | "http" | "http-close";

export interface ScalePoint {
  readonly servers: number;
  readonly flows: number;
  readonly transport: Transport;
  /** Mean think time of each agent before each call, ms (exponential); 0: saturation, no pause. */
  readonly thinkMs: number;
}

interface ToolLatency {
  readonly tool: string;
  readonly calls: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

interface PointResult extends ScalePoint {
  readonly calls: number;
  readonly seconds: number;
  readonly callsPerSecond: number;
  /**
   * The calls/s the flows would make if every call answered at once (flows ÷ mean think time):
   * the load offered, against which callsPerSecond is what was served. Infinite without think time.
   */
  readonly offeredCallsPerSecond: number;
  /** CPU milliseconds per second of one server after the run, with no call in flight (median). */
  readonly idleCpuMsPerSecond: number;
  readonly completed: number;
  readonly tools: readonly ToolLatency[];
  readonly connectionsMax: number;
  readonly connectionsMedian: number;
  readonly walSyncPerCall: number;
  readonly walWritePerCall: number;
  readonly walBytesPerCall: number;
  readonly commitsPerCall: number;
  readonly errors: readonly CallError[];
  /** The 1-minute load average at the end of the run. */
  readonly load1: number;
  /** CPU milliseconds per call: the servers, this process (the clients), PostgreSQL. */
  readonly cpuMsPerCall: { readonly servers: number; readonly clients: number; readonly postgres: number };
  readonly topStatements: readonly TopStatement[];
}

export interface PgScaleSummary {
  readonly cpus: number;
  readonly postgresVersion: string;
  readonly points: readonly PointResult[];
  readonly writers: WritersSummary;
}

export interface PgScaleOptions {
  readonly points?: readonly ScalePoint[];
  /** Flows of the many-writers part. */
  readonly writerFlows?: number;
}

/** A point that has not finished by then is abandoned (its servers and database torn down). */
const POINT_BUDGET_MS = 180_000;
const SAMPLE_MS = 250;

const DEFAULT_POINTS: readonly ScalePoint[] = [
  ...[1, 4, 20].flatMap((servers) =>
    [50, 200].map((flows) => ({ servers, flows, transport: "stdio" as const, thinkMs: 0 })),
  ),
  { servers: 4, flows: 200, transport: "http", thinkMs: 0 },
  { servers: 4, flows: 200, transport: "http-close", thinkMs: 0 },
  { servers: 20, flows: 200, transport: "stdio", thinkMs: 5_000 },
];

/**
 * `NxM`, `NxMhttp` or `NxMhttpclose`, each with an optional `@T` (agents think T ms on average
 * before each call), comma-separated (STRATUMC_PG_SCALE). A point without `@` thinks
 * `defaultThinkMs` (STRATUMC_PG_SCALE_THINK_MS, default 0).
 */
export function parsePoints(text: string, defaultThinkMs = 0): ScalePoint[] {
  return text.split(",").map((part) => {
    const m = /^\s*(\d+)x(\d+)(httpclose|http|stdio)?(?:@(\d+))?\s*$/.exec(part);
    if (m === null) throw new Error(`STRATUMC_PG_SCALE: '${part}' is not NxM, NxMhttp or NxM@T`);
    const servers = Number(m[1]);
    const flows = Number(m[2]);
    const thinkMs = m[4] === undefined ? defaultThinkMs : Number(m[4]);
    if (servers < 1 || flows < 1 || servers > 200 || flows > 10_000 || thinkMs > 600_000)
      throw new Error(
        `STRATUMC_PG_SCALE: '${part}' is out of range (1..200 servers, 1..10000 flows, think ≤ 600000 ms)`,
      );
    const transport: Transport = m[3] === "http" ? "http" : m[3] === "httpclose" ? "http-close" : "stdio";
    return { servers, flows, transport, thinkMs };
  });
}

function withBudget<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pg-scale bench: ${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function startServers(
  repoDir: string,
  root: string,
  point: ScalePoint,
  url: string,
  started: BenchServer[],
): Promise<void> {
  const env = { STRATUM_STORE: url, STRATUM_HOME: join(root, "home") };
  // STRATUMC_PG_SCALE_SERVER_NODE_ARGS go to the servers' node only: e.g. `--require` of a preload
  // that starts node:inspector's profiler and writes the profile when stdin ends. `--cpu-prof`
  // writes at exit, which a loaded server may not reach before the client's close kills it.
  const nodeArgs = (process.env.STRATUMC_PG_SCALE_SERVER_NODE_ARGS ?? "")
    .split(/\s+/)
    .filter((a) => a !== "");
  const start = (repo: string, cwd: string, e: Record<string, string>) =>
    point.transport === "stdio"
      ? startStdioServer(repo, cwd, e, nodeArgs)
      : startHttpServer(repo, cwd, e, point.transport === "http-close", nodeArgs);
  // A few at a time: twenty node processes starting at once on two cores only time out.
  for (let i = 0; i < point.servers; i += 4) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(4, point.servers - i) }, () => start(repoDir, root, env)),
    );
    started.push(...batch);
  }
}

async function runPoint(
  repoDir: string,
  pg: PgServer,
  root: string,
  point: ScalePoint,
): Promise<PointResult> {
  const url = pg.createDatabase(
    `pg_scale_${point.servers}x${point.flows}_${point.transport.replace("-", "_")}`,
  );
  const database = databaseOf(url);
  await psqlAsync(pg, database, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements").catch(() => "");
  const servers: BenchServer[] = [];
  try {
    await startServers(repoDir, root, point, url, servers);
    // Over stdio a process has one session, shared by its agent and its reviewer calls; over HTTP
    // the agent and the reviewer each have their own.
    const agents: ToolCaller[] = [];
    const reviewers: ToolCaller[] = [];
    for (const server of servers) agents.push(await server.session());
    for (const server of servers) reviewers.push(await server.session());
    // Warm-up flows (STRATUMC_PG_SCALE_WARMUP per server, default 0), not measured: a team's
    // servers live for hours, so their steady state is a warm one; a point with few calls per
    // server otherwise measures mostly each server's first calls (its first spec check, V8
    // compiling the call path).
    const warmup = Number(process.env.STRATUMC_PG_SCALE_WARMUP ?? 0) * servers.length;
    if (warmup > 0) {
      const warmLog = new CallLog();
      await Promise.all(
        Array.from({ length: warmup }, (_, i) =>
          driveFlow(agents[i % servers.length]!, reviewers[(i + 1) % servers.length]!, warmLog, `warm ${i}`),
        ),
      );
      if (warmLog.errors.length > 0)
        throw new Error(`pg-scale bench: warm-up failed: ${JSON.stringify(warmLog.errors[0])}`);
    }
    await psqlAsync(pg, database, "SELECT pg_stat_statements_reset()").catch(() => "");
    const before = await walCounters(pg, database);
    const stopSampling = sampleConnections(pg, database, SAMPLE_MS);
    const log = new CallLog({ meanMs: point.thinkMs });
    const pids = servers.map((s) => s.pid);
    const cpu0 = {
      servers: cpuSecondsOf(pids),
      clients: process.cpuUsage(),
      postgres: postgresCpuSeconds(pg.dataDir),
    };
    const t0 = performance.now();
    const outcomes = await withBudget(
      Promise.all(
        Array.from({ length: point.flows }, (_, i) =>
          driveFlow(agents[i % servers.length]!, reviewers[(i + 1) % servers.length]!, log, `change ${i}`),
        ),
      ),
      // A flow's eight pauses add up to 8 think times on average, the slowest of 200 flows' to ~20.
      POINT_BUDGET_MS + 25 * point.thinkMs,
      `${point.servers}x${point.flows} ${point.transport}`,
    );
    const seconds = (performance.now() - t0) / 1000;
    const clientCpu = process.cpuUsage(cpu0.clients);
    const cpuMsPerCall = {
      servers: ((cpuSecondsOf(pids) - cpu0.servers) * 1000) / log.calls,
      clients: (clientCpu.user + clientCpu.system) / 1000 / log.calls,
      postgres: ((postgresCpuSeconds(pg.dataDir) - cpu0.postgres) * 1000) / log.calls,
    };
    const samples = await stopSampling();
    // After the flows, when every server has run the whole path (compiled, caches filled).
    const idleCpuMsPerSecond = await idleCpu(pids);
    const load1 = loadavg()[0] ?? Number.NaN;
    const top = await topStatements(pg, database, 8);
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    // A backend hands its WAL statistics in when it ends: read them once every server is gone.
    await untilDisconnected(pg, database, 10_000);
    const after = await walCounters(pg, database);
    for (const e of log.errors)
      process.stderr.write(`pg-scale bench: error from ${e.tool}: ${e.code}: ${e.message}\n`);
    const tools = [...log.latencies.entries()]
      .map(([tool, xs]) => ({ tool, calls: xs.length, p50Ms: median(xs), p99Ms: percentile(xs, 99) }))
      .sort((a, b) => a.tool.localeCompare(b.tool));
    const per = (x: number) => x / log.calls;
    return {
      ...point,
      calls: log.calls,
      seconds,
      callsPerSecond: log.calls / seconds,
      offeredCallsPerSecond:
        point.thinkMs > 0 ? (point.flows * 1000) / point.thinkMs : Number.POSITIVE_INFINITY,
      idleCpuMsPerSecond,
      completed: outcomes.filter(Boolean).length,
      tools,
      connectionsMax: Math.max(0, ...samples),
      connectionsMedian: median(samples),
      walSyncPerCall: per(after.walSync - before.walSync),
      walWritePerCall: per(after.walWrite - before.walWrite),
      walBytesPerCall: per(after.walBytes - before.walBytes),
      commitsPerCall: per(after.commits - before.commits),
      errors: log.errors,
      load1,
      cpuMsPerCall,
      topStatements: top,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
  }
}

const IDLE_MS = 2_000;

/** Each server's CPU over a quiet window (sessions open, nothing called), ms per second; the median. */
async function idleCpu(pids: readonly number[]): Promise<number> {
  const before = pids.map((pid) => cpuSecondsOf([pid]));
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const seconds = (performance.now() - t0) / 1000;
  return median(pids.map((pid, i) => ((cpuSecondsOf([pid]) - before[i]!) * 1000) / seconds));
}

function pointLabel(p: ScalePoint): string {
  const kind = p.transport === "stdio" ? "stdio" : "HTTP";
  const close = p.transport === "http-close" ? " (Connection: close)" : "";
  const think = p.thinkMs > 0 ? `, think ${p.thinkMs / 1000} s` : "";
  return `${p.servers} ${kind} server${p.servers === 1 ? "" : "s"} × ${p.flows} flows${close}${think}`;
}

export async function benchPgScale(repoDir: string, options: PgScaleOptions = {}): Promise<PgScaleSummary> {
  const fromEnv = process.env.STRATUMC_PG_SCALE;
  const points =
    options.points ??
    (fromEnv === undefined || fromEnv === ""
      ? DEFAULT_POINTS
      : parsePoints(fromEnv, Number(process.env.STRATUMC_PG_SCALE_THINK_MS ?? 0)));
  const root = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "stratumc-pg-scale-bench-")));
  let pg: PgServer | undefined;
  try {
    pg = await startPostgres({
      durable: true,
      settings: ["shared_preload_libraries=pg_stat_statements", "max_connections=400"],
    });
    const version = (await psqlAsync(pg, "postgres", "SHOW server_version")).trim();
    const results: PointResult[] = [];
    for (const point of points) {
      process.stderr.write(`pg scale: ${pointLabel(point)}…\n`);
      results.push(await runPoint(repoDir, pg, root, point));
    }
    process.stderr.write("pg scale: many writers on one flow…\n");
    const writerFlows = options.writerFlows ?? Number(process.env.STRATUMC_PG_SCALE_WRITERS ?? 40);
    const writers = await benchWriters(repoDir, pg, root, writerFlows);
    return { cpus: cpus().length, postgresVersion: version, points: results, writers };
  } finally {
    pg?.destroy();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function pgScaleRows(s: PgScaleSummary): Row[] {
  const rows: Row[] = [];
  const row = (metric: string, median: number, target: number | null = null): Row => ({
    metric,
    median,
    baseline: null,
    ratio: null,
    target,
  });
  for (const p of s.points) {
    const label = `pg scale: ${pointLabel(p)}`;
    const stepDone = p.tools.find((t) => t.tool === "stratum_step_done");
    rows.push(row(`${label}: calls/s`, p.callsPerSecond));
    if (p.thinkMs > 0) rows.push(row(`${label}: offered calls/s`, p.offeredCallsPerSecond));
    rows.push(row(`${label}: step_done p50 ms`, stepDone?.p50Ms ?? Number.NaN));
    rows.push(row(`${label}: step_done p99 ms`, stepDone?.p99Ms ?? Number.NaN));
    rows.push(row(`${label}: errors`, p.errors.length, 0));
  }
  rows.push(
    row("pg scale: many writers, stale_state answers no other write explains", s.writers.unexplainedStale, 0),
    row(
      "pg scale: many writers, gate resolutions refused 5 times in a row by a polling agent's writes",
      s.writers.resolutionsGivenUp,
      0,
    ),
  );
  return rows;
}

const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** The curve as a Markdown table, the tools' latencies, the top statements and the writers part. */
export function describePgScale(s: PgScaleSummary): string {
  const lines = [
    `PostgreSQL ${s.postgresVersion} (fsync on), ${s.cpus} CPUs, built stratum-mcp; each flow makes 8 calls (plan, 3 step_done, parallel_done, an ensure_failed step_done, gate_resolve from the next server's client, resume). Offered calls/s: flows ÷ mean think time ("sat." without think time: each flow calls again as soon as answered).`,
    "",
    "| servers × flows | offered calls/s | calls/s | step_done p50 / p99 ms | connections (max) | WAL flushes / call | WAL writes / call | commits / call | CPU ms / call: servers, clients, PostgreSQL | idle server CPU ms/s | errors | load (1 min) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const p of s.points) {
    const sd = p.tools.find((t) => t.tool === "stratum_step_done");
    lines.push(
      `| ${pointLabel(p)} | ${p.thinkMs > 0 ? f(p.offeredCallsPerSecond) : "sat."} | ${f(p.callsPerSecond)} | ${f(sd?.p50Ms ?? Number.NaN)} / ${f(sd?.p99Ms ?? Number.NaN)} | ${p.connectionsMax} | ${f(p.walSyncPerCall, 2)} | ${f(p.walWritePerCall, 2)} | ${f(p.commitsPerCall, 2)} | ${f(p.cpuMsPerCall.servers, 1)}, ${f(p.cpuMsPerCall.clients, 1)}, ${f(p.cpuMsPerCall.postgres, 1)} | ${f(p.idleCpuMsPerSecond, 1)} | ${p.errors.length} | ${f(p.load1, 1)} |`,
    );
  }
  lines.push("", "p50 / p99 ms per tool:", "");
  for (const p of s.points) {
    lines.push(
      `  ${pointLabel(p)}: ${p.tools.map((t) => `${t.tool.replace("stratum_", "")} ${f(t.p50Ms)}/${f(t.p99Ms)}`).join(", ")}`,
    );
  }
  const largest = [...s.points].sort((a, b) => b.servers * b.flows - a.servers * a.flows)[0];
  if (largest !== undefined && largest.topStatements.length > 0) {
    lines.push("", `Database time by statement, ${pointLabel(largest)} (pg_stat_statements):`, "");
    for (const t of largest.topStatements)
      lines.push(`  ${f(t.totalMs)} ms total, ${t.calls} calls, ${f(t.meanMs, 3)} ms mean: ${t.query}`);
  }
  const w = s.writers;
  lines.push(
    "",
    `Many writers on one flow (${w.flows} flows at a gate, the agent polling stratum_resume on one server while a client of a second server resolves the gate): ` +
      `${w.polls} polls, ${w.resolves} gate_resolve calls; stale_state answers: ${w.staleToPolls} to polls, ${w.staleToResolves} to resolves, ` +
      `${w.unexplainedStale} not explained by an overlapping write of the other process; writes per flow after the gate ${f(w.writesPerFlow, 2)}; ` +
      `${w.resolutionsGivenUp} resolutions refused 5 times in a row (given up); ` +
      `the agent saw the resolution ${f(w.seenP50Ms)} / ${f(w.seenP99Ms)} ms (p50 / p99) after the resolve answered; ${w.errors.length} errors.`,
  );
  for (const e of w.errors) lines.push(`  error from ${e.tool}: ${e.code}: ${e.message}`);
  return `${lines.join("\n")}\n`;
}
