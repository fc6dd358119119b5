// Part 3 of the PostgreSQL store bench (bench/pg-store-bench.ts): the store's commit rate in
// process, without MCP, so that the cost of the database's durability is seen apart from process
// and stdio overhead. The engine API (createApi) on PgFlowStore or FileFlowStore, the durable
// bench's flow (bench/durable-call-bench.ts), step_done calls per second with 1 engine (one store,
// one 400-step flow, 400 calls) and with 4 engines in this process (4 stores, 4 flows, 200 calls
// each, concurrently), for three stores:
//
//   - PostgreSQL as a production server runs it: the durable server of the other parts (fsync on,
//     synchronous_commit on); a database per set-up (the 4 engines share theirs);
//   - the same server, databases with `ALTER DATABASE … SET synchronous_commit = off` (a documented
//     trade-off: a database crash may lose the last commits, never corrupt them);
//   - the file store (fdatasync per commit): one STRATUM_HOME per set-up (the 4 engines share it).
//
// Flows are planned before the clock starts. One warm-up round, then 3 rounds of the six set-ups
// in rotating order; each figure is the median over rounds.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { composeHost } from "../host/compose";
import { FileFlowStore, PgFlowStore } from "../host/index";
import type { StratumApi } from "../interpreter/api";
import type { FlowStore } from "../interpreter/store/store";
import { wireToPlain } from "../interpreter/wire/encode";
import { fromJsonValue } from "../stdlib/values/json";
import type { PgServer } from "../test/support/postgres";
import { longFlowSpec, stepResult } from "./durable-call-bench";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

/** Calls (= steps of its flow) of the single engine; engines and calls of each in the other set-up. */
const ONE_ENGINE_CALLS = 400;
const ENGINES = 4;
const CALLS_PER_ENGINE = 200;
const ROUNDS = 3;
const WARMUP = 1;

const INPUTS = { topic: "a flow store shared by engines" };

type EngineStore = "postgres" | "postgresAsync" | "file";
const STORES: readonly EngineStore[] = ["postgres", "postgresAsync", "file"];

/** Median calls per second over rounds, with 1 engine and with ENGINES engines. */
interface EngineRates {
  readonly one: number;
  readonly many: number;
}

export interface PgEngineSummary {
  readonly engines: number;
  readonly oneEngineCalls: number;
  readonly callsPerEngine: number;
  readonly rounds: number;
  readonly warmup: number;
  readonly perSecond: Readonly<Record<EngineStore, EngineRates>>;
}

interface Engine {
  readonly api: StratumApi;
  readonly store: FlowStore & { close(): void | Promise<void> };
}

interface Setup {
  readonly store: EngineStore;
  readonly engines: readonly Engine[];
  /** Steps of each engine's flow = its calls per round. */
  readonly steps: number;
  readonly perSecond: number[];
}

function engine(store: Engine["store"], cwd: string): Engine {
  const api = composeHost({ cwd, env: {}, store: { store, where: cwd } }).api();
  return { api, store };
}

function status(response: unknown): string {
  const plain = (wireToPlain(response as never) ?? {}) as Record<string, unknown>;
  return String(plain.status);
}

/** Plans one flow per engine, then times every engine finishing its flow, all concurrently. */
async function callsPerSecond(setup: Setup, spec: string): Promise<number> {
  const flowIds: string[] = [];
  for (const { api } of setup.engines) {
    const answer = await api.plan({ spec, flow: "main", inputs: fromJsonValue(INPUTS) });
    const plain = (wireToPlain(answer as never) ?? {}) as Record<string, unknown>;
    if (plain.status !== "execute_step")
      throw new Error(`pg engine bench: plan answered '${String(plain.status)}'`);
    flowIds.push(String(plain.flow_id));
  }
  const t0 = performance.now();
  await Promise.all(
    setup.engines.map(async ({ api }, k) => {
      for (let n = 1; n <= setup.steps; n++) {
        const answer = await api.stepDone({
          flow_id: flowIds[k]!,
          step_id: `s${n - 1}`,
          result: fromJsonValue(stepResult(n)),
        });
        const expected = n === setup.steps ? "complete" : "execute_step";
        const got = status(answer);
        if (got !== expected) throw new Error(`pg engine bench: step_done ${n} answered '${got}'`);
      }
    }),
  );
  return (setup.engines.length * setup.steps) / ((performance.now() - t0) / 1000);
}

function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

/** A fresh database on `pg`; with `synchronous_commit = off` set on it for `postgresAsync`. */
function database(pg: PgServer, store: EngineStore, prefix: string): string {
  const url = pg.createDatabase(prefix);
  const name = databaseOf(url);
  if (store === "postgresAsync") pg.psql(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  const want = store === "postgresAsync" ? "off" : "on";
  const got = pg.psql("SHOW synchronous_commit", name).trim();
  const fsync = pg.psql("SHOW fsync", name).trim();
  if (got !== want || fsync !== "on")
    throw new Error(`pg engine bench: ${name} has synchronous_commit=${got}, fsync=${fsync}`);
  return url;
}

export async function benchPgEngine(pg: PgServer, root: string): Promise<PgEngineSummary> {
  const setups: Setup[] = [];
  const all: Engine[] = [];
  const make = (store: EngineStore, count: number, steps: number): void => {
    const engines: Engine[] = [];
    if (store === "file") {
      const home = join(root, `engine-home-${count}`);
      for (let i = 0; i < count; i++) engines.push(engine(new FileFlowStore(home), root));
    } else {
      const url = database(pg, store, `pg_engine_${store === "postgres" ? "sync" : "async"}_${count}`);
      for (let i = 0; i < count; i++) engines.push(engine(new PgFlowStore(url), root));
    }
    all.push(...engines);
    setups.push({ store, engines, steps, perSecond: [] });
  };
  try {
    for (const store of STORES) {
      make(store, 1, ONE_ENGINE_CALLS);
      make(store, ENGINES, CALLS_PER_ENGINE);
    }
    const specs = new Map(setups.map((s) => [s.steps, longFlowSpec(s.steps)]));
    for (let r = -WARMUP; r < ROUNDS; r++) {
      const shift = (r + WARMUP) % setups.length;
      for (let k = 0; k < setups.length; k++) {
        const setup = setups[(k + shift) % setups.length]!;
        const rate = await callsPerSecond(setup, specs.get(setup.steps)!);
        if (r >= 0) setup.perSecond.push(rate);
      }
    }
  } finally {
    for (const { store } of all) await store.close();
  }
  const rates = (store: EngineStore): EngineRates => {
    const [one, many] = setups.filter((s) => s.store === store).map((s) => median(s.perSecond));
    return { one: one!, many: many! };
  };
  return {
    engines: ENGINES,
    oneEngineCalls: ONE_ENGINE_CALLS,
    callsPerEngine: CALLS_PER_ENGINE,
    rounds: ROUNDS,
    warmup: WARMUP,
    perSecond: { postgres: rates("postgres"), postgresAsync: rates("postgresAsync"), file: rates("file") },
  };
}

const LABEL: Readonly<Record<EngineStore, string>> = {
  postgres: "PostgreSQL (fsync on, synchronous_commit on)",
  postgresAsync: "PostgreSQL (fsync on, synchronous_commit off)",
  file: "file store",
};

export function pgEngineRows(s: PgEngineSummary): Row[] {
  const row = (metric: string, median: number, baseline: number | null = null): Row => ({
    metric,
    median,
    baseline,
    ratio: baseline === null ? null : median / baseline,
    target: null,
  });
  const at = "pg store: in-process step_done calls/s,";
  const f = s.perSecond.file;
  const rows: Row[] = [
    row(`${at} file store, 1 engine (${s.oneEngineCalls}-step flow, median of ${s.rounds})`, f.one),
    row(
      `${at} file store, ${s.engines} engines on one STRATUM_HOME (${s.callsPerEngine} calls each; baseline: 1 engine; ratio = scaling)`,
      f.many,
      f.one,
    ),
  ];
  for (const store of ["postgres", "postgresAsync"] as const) {
    const p = s.perSecond[store];
    rows.push(
      row(
        `${at} ${LABEL[store]}, 1 engine (baseline: file store, 1 engine; ratio higher is better)`,
        p.one,
        f.one,
      ),
      row(
        `${at} ${LABEL[store]}, ${s.engines} engines on one database (baseline: file store, ${s.engines} engines)`,
        p.many,
        f.many,
      ),
      row(`${at} ${LABEL[store]}, ${s.engines} engines (baseline: 1 engine; ratio = scaling)`, p.many, p.one),
    );
  }
  return rows;
}

/** The sentence about this part, for describePgStore. */
export function describePgEngine(s: PgEngineSummary): string {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const rates = (store: EngineStore) => {
    const r = s.perSecond[store];
    return `${r.one.toFixed(0)} calls/s with 1 engine, ${r.many.toFixed(0)} with ${s.engines} (${ratio(r.many, r.one)})`;
  };
  const p = s.perSecond.postgres;
  const a = s.perSecond.postgresAsync;
  const f = s.perSecond.file;
  return (
    `In process, without MCP (createApi on the store; 1 engine finishing a ${s.oneEngineCalls}-step flow, ` +
    `${s.engines} engines ${s.callsPerEngine} steps each concurrently; median of ${s.rounds} rotating rounds ` +
    `after ${s.warmup} warm-up): file store ${rates("file")}; PostgreSQL with synchronous_commit on ` +
    `${rates("postgres")}, ÷ file ${ratio(p.one, f.one)} and ${ratio(p.many, f.many)}; with ` +
    `synchronous_commit off on the database (a crash may lose the last commits, never corrupt them) ` +
    `${rates("postgresAsync")}, ÷ file ${ratio(a.one, f.one)} and ${ratio(a.many, f.many)}.\n`
  );
}
