// Which PostgreSQL client library the flow store should use, by measurement: `pg` (node-postgres)
// against `postgres` (postgres.js), both over pools on the same real server (test/support/postgres.ts,
// durable: fsync on, as in production). Every latency is measured interleaved (one call of each
// library per round, order alternating) after a warm-up, so both see the same server and machine:
// connect + first `SELECT 1` on a new pool; the `SELECT 1` round trip (the floor); a parameterized
// `SELECT revision … WHERE id = $1` (pg as a named prepared statement and as an unnamed one;
// postgres.js prepares by itself); a flow commit as one call of a plpgsql function (advisory lock,
// revision check, ~2 KB delta insert, revision update, pg_notify) and as an explicit transaction of
// the same statements; LISTEN/NOTIFY latency (NOTIFY sent on one connection → the listener's
// callback on another); commit throughput over 4 connections; and the minified esbuild bundle of a
// script importing each library. Ratios: postgres.js against pg's same number; pg's latencies
// against pg's `SELECT 1` round trip (how many round trips a call costs). pg-client-restarts.ts
// records what each library does when the server restarts under it.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import postgres from "postgres";
import { type PgServer, startPostgres } from "../test/support/postgres";
import { median, percentile } from "./lib/stats";
import type { Row } from "./lib/table";
import type { RestartReport } from "./pg-client-restarts";

const CONNECTS = 40;
const WARMUP = 100;
const ITERATIONS = 1_000;
const NOTIFY_WARMUP = 20;
const NOTIFIES = 200;
const CONCURRENCY = 4;
const CALLS_PER_WORKER = 250;
const THROUGHPUT_ROUNDS = 3;
const DELTA_BYTES = 2_000;

const SCHEMA = `
CREATE TABLE flows (id text PRIMARY KEY, revision bigint NOT NULL);
CREATE TABLE deltas (
  id text NOT NULL,
  revision bigint NOT NULL,
  delta text NOT NULL,
  PRIMARY KEY (id, revision)
);
CREATE FUNCTION commit_flow(p_id text, p_expected bigint, p_delta text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  current bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_id, 0));
  SELECT revision INTO current FROM flows WHERE id = p_id;
  IF current IS DISTINCT FROM p_expected THEN
    RETURN -1;
  END IF;
  INSERT INTO deltas (id, revision, delta) VALUES (p_id, p_expected + 1, p_delta);
  UPDATE flows SET revision = p_expected + 1 WHERE id = p_id;
  PERFORM pg_notify('ch', p_id);
  RETURN p_expected + 1;
END
$$;
`;

const SQL = {
  select1: "SELECT 1 AS one",
  revision: "SELECT revision FROM flows WHERE id = $1",
  commit: "SELECT commit_flow($1, $2, $3) AS revision",
  lock: "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
  insert: "INSERT INTO deltas (id, revision, delta) VALUES ($1, $2, $3)",
  update: "UPDATE flows SET revision = $2 WHERE id = $1",
  notify: "SELECT pg_notify($1, $2)",
} as const;

/** A delta of about 2 KB that does not compress to nothing (a flow step's JSON result). */
function makeDelta(seed: number): string {
  const parts: string[] = [];
  let x = seed * 2_654_435_761;
  let length = 0;
  while (length < DELTA_BYTES - 40) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    const part = `"k${parts.length}":"${x.toString(36)}${(x >> 7).toString(16)}"`;
    parts.push(part);
    length += part.length + 1;
  }
  return `{${parts.join(",")}}`;
}

/** One library, behind the same few calls. */
interface Client {
  readonly name: string;
  /** A new pool/connection, `SELECT 1` on it; resolves when the answer is in (milliseconds). */
  connectFirst(): Promise<number>;
  select1(): Promise<void>;
  revision(id: string): Promise<number>;
  /** The unnamed (parse every time) variant, where the library has one. */
  revisionUnprepared?(id: string): Promise<number>;
  commitCall(id: string, expected: number, delta: string): Promise<number>;
  commitTransaction(id: string, expected: number, delta: string): Promise<number>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<void>;
  notify(channel: string, payload: string): Promise<void>;
  end(): Promise<void>;
}

function toRevision(value: unknown): number {
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint")
    return Number(value);
  throw new Error(`pg-client bench: unexpected revision ${String(value)}`);
}

interface RevisionRow {
  readonly revision: string | number | null;
}

function pgClient(url: string): Client {
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  pool.on("error", () => undefined);
  let listener: pg.Client | null = null;
  const named = (name: string, text: string, values: unknown[]) => ({ name, text, values });
  return {
    name: "pg",
    async connectFirst() {
      const t0 = performance.now();
      const fresh = new pg.Pool({ connectionString: url, max: 1 });
      await fresh.query(SQL.select1);
      const ms = performance.now() - t0;
      await fresh.end();
      return ms;
    },
    async select1() {
      await pool.query(SQL.select1);
    },
    async revision(id) {
      const r = await pool.query<RevisionRow>(named("revision", SQL.revision, [id]));
      return toRevision(r.rows[0]?.revision);
    },
    async revisionUnprepared(id) {
      const r = await pool.query<RevisionRow>(SQL.revision, [id]);
      return toRevision(r.rows[0]?.revision);
    },
    async commitCall(id, expected, delta) {
      const r = await pool.query<RevisionRow>(named("commit", SQL.commit, [id, expected, delta]));
      return toRevision(r.rows[0]?.revision);
    },
    async commitTransaction(id, expected, delta) {
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        await c.query(named("lock", SQL.lock, [id]));
        const r = await c.query<RevisionRow>(named("revision", SQL.revision, [id]));
        if (toRevision(r.rows[0]?.revision) !== expected) {
          await c.query("ROLLBACK");
          return -1;
        }
        await c.query(named("insert", SQL.insert, [id, expected + 1, delta]));
        await c.query(named("update", SQL.update, [id, expected + 1]));
        await c.query(named("notify", SQL.notify, ["ch", id]));
        await c.query("COMMIT");
        return expected + 1;
      } catch (e) {
        await c.query("ROLLBACK").catch(() => undefined);
        throw e;
      } finally {
        c.release();
      }
    },
    async listen(channel, onPayload) {
      listener = new pg.Client({ connectionString: url });
      listener.on("error", () => undefined);
      await listener.connect();
      listener.on("notification", (n) => {
        if (n.channel === channel) onPayload(n.payload ?? "");
      });
      await listener.query(`LISTEN ${channel}`);
    },
    async notify(channel, payload) {
      await pool.query(named("notify", SQL.notify, [channel, payload]));
    },
    async end() {
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

function postgresClient(url: string): Client {
  const sql = postgres(url, { max: CONCURRENCY, onnotice: () => undefined });
  return {
    name: "postgres",
    async connectFirst() {
      const t0 = performance.now();
      const fresh = postgres(url, { max: 1 });
      await fresh`SELECT 1 AS one`;
      const ms = performance.now() - t0;
      await fresh.end();
      return ms;
    },
    async select1() {
      await sql`SELECT 1 AS one`;
    },
    async revision(id) {
      const rows = await sql<RevisionRow[]>`SELECT revision FROM flows WHERE id = ${id}`;
      return toRevision(rows[0]?.revision);
    },
    async commitCall(id, expected, delta) {
      const rows = await sql<RevisionRow[]>`SELECT commit_flow(${id}, ${expected}, ${delta}) AS revision`;
      return toRevision(rows[0]?.revision);
    },
    async commitTransaction(id, expected, delta) {
      const result = await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtextextended(${id}, 0))`;
        const rows = await tx<RevisionRow[]>`SELECT revision FROM flows WHERE id = ${id}`;
        if (toRevision(rows[0]?.revision) !== expected) return -1;
        await tx`INSERT INTO deltas (id, revision, delta) VALUES (${id}, ${expected + 1}, ${delta})`;
        await tx`UPDATE flows SET revision = ${expected + 1} WHERE id = ${id}`;
        await tx`SELECT pg_notify('ch', ${id})`;
        return expected + 1;
      });
      return result;
    },
    async listen(channel, onPayload) {
      await sql.listen(channel, onPayload);
    },
    async notify(channel, payload) {
      await sql`SELECT pg_notify(${channel}, ${payload})`;
    },
    async end() {
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * Runs `op` for each side once per round, timing each call; the order rotates every round (and
 * reverses every other), so that no side always goes first or follows the same one.
 */
async function interleaved<S>(
  sides: readonly S[],
  warmup: number,
  rounds: number,
  op: (side: S, round: number) => Promise<unknown>,
): Promise<number[][]> {
  const samples: number[][] = sides.map(() => []);
  const n = sides.length;
  for (let r = -warmup; r < rounds; r++) {
    const shift = ((r % n) + n) % n;
    const order = sides.map((_, i) => (i + shift) % n);
    if (Math.floor(r / n) % 2 !== 0) order.reverse();
    for (const i of order) {
      const t0 = performance.now();
      await op(sides[i]!, r);
      const ms = performance.now() - t0;
      if (r >= 0) samples[i]!.push(ms);
    }
  }
  return samples;
}

/** Per client, a flow id and its revision as this process last committed it. */
class Flows {
  private readonly revisions = new Map<string, number>();
  constructor(
    private readonly server: PgServer,
    private readonly db: string,
  ) {}
  create(id: string): string {
    this.server.psql(`INSERT INTO flows (id, revision) VALUES ('${id}', 0)`, this.db);
    this.revisions.set(id, 0);
    return id;
  }
  async commit(id: string, run: (expected: number) => Promise<number>): Promise<void> {
    const expected = this.revisions.get(id) ?? 0;
    const next = await run(expected);
    if (next !== expected + 1)
      throw new Error(`pg-client bench: commit of ${id} at ${expected} answered ${next}`);
    this.revisions.set(id, next);
  }
}

async function notifyLatencies(clients: readonly Client[]): Promise<number[][]> {
  const waiting = new Map<string, (t: number) => void>();
  for (const c of clients) {
    await c.listen(`lat_${c.name}`, (payload) => {
      const done = waiting.get(payload);
      if (done !== undefined) done(performance.now());
    });
  }
  return interleaved(clients, NOTIFY_WARMUP, NOTIFIES, async (c, r) => {
    const payload = `${c.name}:${r}`;
    const received = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`pg-client bench: ${c.name} lost NOTIFY ${r}`)), 5_000);
      waiting.set(payload, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
    await c.notify(`lat_${c.name}`, payload);
    await received;
    waiting.delete(payload);
  });
}

/** Commit calls per second over CONCURRENCY connections, each worker on a flow of its own. */
async function throughput(
  client: Client,
  flows: Flows,
  round: number,
  deltas: readonly string[],
): Promise<number> {
  const ids = Array.from({ length: CONCURRENCY }, (_, w) => flows.create(`tp-${client.name}-${round}-${w}`));
  const t0 = performance.now();
  await Promise.all(
    ids.map(async (id, w) => {
      for (let i = 0; i < CALLS_PER_WORKER; i++) {
        const delta = deltas[(w + i) % deltas.length]!;
        await flows.commit(id, (expected) => client.commitCall(id, expected, delta));
      }
    }),
  );
  return (CONCURRENCY * CALLS_PER_WORKER) / ((performance.now() - t0) / 1000);
}

/** Minified bytes of a node bundle of `import … from "<library>"` (esbuild, as the CLI's bundles). */
function bundleBytes(repoDir: string, library: string): number {
  const dir = fs.mkdtempSync(join(tmpdir(), "stratumc-pg-bundle-"));
  try {
    const out = join(dir, "out.js");
    const r = spawnSync(
      join(repoDir, "node_modules/.bin/esbuild"),
      [
        "--bundle",
        "--platform=node",
        "--minify",
        "--log-level=error",
        `--sourcefile=${library}-entry.js`,
        "--external:pg-native",
        `--outfile=${out}`,
      ],
      { cwd: repoDir, input: `import lib from "${library}";\nconsole.log(typeof lib);\n`, encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`esbuild ${library} failed: ${r.stderr}`);
    return fs.statSync(out).size;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface PgClientBenchOptions {
  /** fsync and synchronous_commit on (the default: realistic commit latency). */
  readonly durable?: boolean;
}

export interface PgClientBench {
  readonly rows: Row[];
  readonly durable: boolean;
  readonly bundleBytes: { readonly pg: number; readonly postgres: number };
  readonly versions: { readonly pg: string; readonly postgres: string };
}

export async function benchPgClient(
  repoDir: string,
  options: PgClientBenchOptions = {},
): Promise<PgClientBench> {
  const durable = options.durable ?? true;
  const bytes = { pg: bundleBytes(repoDir, "pg"), postgres: bundleBytes(repoDir, "postgres") };
  const server = await startPostgres({ durable });
  const clients: Client[] = [];
  try {
    const url = server.createDatabase("pgclient");
    const db = new URL(url).pathname.slice(1);
    server.psql(SCHEMA, db);
    clients.push(pgClient(url), postgresClient(url));
    const [pgSide, pjSide] = clients as [Client, Client];
    const flows = new Flows(server, db);
    const deltas = Array.from({ length: 64 }, (_, i) => makeDelta(i));

    // connectFirst times itself: the pool's end is left out.
    const connectMs: number[][] = clients.map(() => []);
    for (let r = -3; r < CONNECTS; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const ms = await clients[i]!.connectFirst();
        if (r >= 0) connectMs[i]!.push(ms);
      }
    }

    const select1 = await interleaved(clients, WARMUP, ITERATIONS, (c) => c.select1());
    const readIds = clients.map((c) => flows.create(`read-${c.name}`));
    const revision = await interleaved(clients, WARMUP, ITERATIONS, (c) =>
      c.revision(readIds[clients.indexOf(c)]!),
    );
    const unprepared = await interleaved([pgSide], WARMUP, ITERATIONS, (c) =>
      c.revisionUnprepared!(readIds[0]!),
    );
    // Both commit forms in the same rounds: the server's fsync time drifts over a run.
    const commitSides = (["call", "transaction"] as const).flatMap((form) =>
      clients.map((client) => ({ client, form, id: flows.create(`${form}-${client.name}`) })),
    );
    const commits = await interleaved(commitSides, WARMUP, ITERATIONS, (side, r) => {
      const delta = deltas[(r + WARMUP) % deltas.length]!;
      return flows.commit(side.id, (expected) =>
        side.form === "call"
          ? side.client.commitCall(side.id, expected, delta)
          : side.client.commitTransaction(side.id, expected, delta),
      );
    });
    const commitCall = [commits[0]!, commits[1]!];
    const commitTx = [commits[2]!, commits[3]!];
    const notify = await notifyLatencies(clients);
    const perSecond: number[][] = [[], []];
    await throughput(pgSide, flows, -1, deltas);
    await throughput(pjSide, flows, -1, deltas);
    for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) perSecond[i]!.push(await throughput(clients[i]!, flows, round, deltas));
    }

    const fsync = durable ? "fsync on" : "fsync off";
    const p50 = (s: number[][], i: number) => median(s[i]!);
    const p99 = (s: number[][], i: number) => percentile(s[i]!, 99);
    const floor = p50(select1, 0);
    const rows: Row[] = [];
    const pair = (what: string, s: number[][], withP99: boolean, pgBaseline: "floor" | "none") => {
      rows.push({
        metric: `pg-client: ${what} p50 ms, pg${pgBaseline === "floor" ? " (baseline: pg SELECT 1)" : ""}`,
        median: p50(s, 0),
        baseline: pgBaseline === "floor" ? floor : null,
        ratio: pgBaseline === "floor" ? p50(s, 0) / floor : null,
        target: null,
      });
      rows.push({
        metric: `pg-client: ${what} p50 ms, postgres (baseline: pg)`,
        median: p50(s, 1),
        baseline: p50(s, 0),
        ratio: p50(s, 1) / p50(s, 0),
        target: null,
      });
      if (!withP99) return;
      rows.push({
        metric: `pg-client: ${what} p99 ms, pg`,
        median: p99(s, 0),
        baseline: null,
        ratio: null,
        target: null,
      });
      rows.push({
        metric: `pg-client: ${what} p99 ms, postgres (baseline: pg)`,
        median: p99(s, 1),
        baseline: p99(s, 0),
        ratio: p99(s, 1) / p99(s, 0),
        target: null,
      });
    };
    pair(`new pool + first SELECT 1 (${CONNECTS} runs)`, connectMs, false, "none");
    pair(`SELECT 1 round trip (${ITERATIONS} runs)`, select1, true, "none");
    pair("SELECT revision by id, prepared", revision, true, "floor");
    rows.push({
      metric: "pg-client: SELECT revision by id p50 ms, pg unnamed statement (baseline: pg prepared)",
      median: p50(unprepared, 0),
      baseline: p50(revision, 0),
      ratio: p50(unprepared, 0) / p50(revision, 0),
      target: null,
    });
    pair(`commit as one function call, ${fsync}`, commitCall, true, "floor");
    pair(`commit as BEGIN…COMMIT of 7 statements, ${fsync}`, commitTx, true, "floor");
    rows.push(
      {
        metric: "pg-client: commit, function call ÷ transaction p50, pg",
        median: p50(commitCall, 0),
        baseline: p50(commitTx, 0),
        ratio: p50(commitCall, 0) / p50(commitTx, 0),
        target: null,
      },
      {
        metric: "pg-client: commit, function call ÷ transaction p50, postgres",
        median: p50(commitCall, 1),
        baseline: p50(commitTx, 1),
        ratio: p50(commitCall, 1) / p50(commitTx, 1),
        target: null,
      },
    );
    pair(`NOTIFY sent → listener callback (${NOTIFIES} runs)`, notify, true, "floor");
    const tp = perSecond.map((s) => median(s));
    rows.push(
      {
        metric: `pg-client: commit calls/s over ${CONCURRENCY} connections, ${fsync}, pg (median of ${THROUGHPUT_ROUNDS})`,
        median: tp[0]!,
        baseline: null,
        ratio: null,
        target: null,
      },
      {
        metric:
          "pg-client: commit calls/s over 4 connections, postgres (baseline: pg; ratio = pg / postgres)",
        median: tp[1]!,
        baseline: tp[0]!,
        ratio: tp[0]! / tp[1]!,
        target: null,
      },
      {
        metric: "pg-client: minified node bundle KB, pg (pg-native external)",
        median: bytes.pg / 1024,
        baseline: null,
        ratio: null,
        target: null,
      },
      {
        metric: "pg-client: minified node bundle KB, postgres (baseline: pg)",
        median: bytes.postgres / 1024,
        baseline: bytes.pg / 1024,
        ratio: bytes.postgres / bytes.pg,
        target: null,
      },
    );
    const versions = { pg: packageVersion(repoDir, "pg"), postgres: packageVersion(repoDir, "postgres") };
    return { rows, durable, bundleBytes: bytes, versions };
  } finally {
    for (const c of clients) await c.end().catch(() => undefined);
    server.destroy();
  }
}

export function describePgClient(bench: PgClientBench, restarts: readonly RestartReport[] = []): string {
  const lines = [
    `pg-client: pg ${bench.versions.pg} vs postgres ${bench.versions.postgres}, server ${
      bench.durable ? "durable (fsync on)" : "fsync off"
    }; bundles ${bench.bundleBytes.pg} vs ${bench.bundleBytes.postgres} bytes.`,
  ];
  for (const r of restarts) {
    lines.push(
      `${r.library} across a server restart: in-flight query → ${r.inFlight}; while down → ${r.whileDown}; ` +
        `old pool after restart → ${r.afterRestart}; listener hears NOTIFY after restart → ${r.listenerAfterRestart}` +
        (r.stray.length > 0 ? `; outside queries: ${r.stray.join("; ")}` : ""),
    );
  }
  return `${lines.join("\n")}\n`;
}

function packageVersion(repoDir: string, name: string): string {
  try {
    const json: unknown = JSON.parse(
      fs.readFileSync(join(repoDir, "node_modules", name, "package.json"), "utf8"),
    );
    return typeof json === "object" && json !== null && "version" in json ? String(json.version) : "?";
  } catch {
    return "?";
  }
}
