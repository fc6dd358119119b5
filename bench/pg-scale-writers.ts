// Many writers on one flow: two built stratum-mcp servers on one database; for each flow, the agent
// on the first polls stratum_resume while a client of the second resolves the gate through the
// store (after a short, varying delay, so that some resolutions land in the middle of a poll). A
// `stale_state` answer is justified only when a write of the other process overlapped the refused
// call in time (it committed between the call's read and its commit); any other one is counted as
// unexplained. A refused resolve is retried, as the answer asks (at most 5 times; a resolution
// refused all 5 times is counted as given up: the polling process starved it). Also measured:
// how long after the resolve answered the polling agent saw the next step (no starvation), and
// how many revisions each flow gained after its gate (whether polls write).
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { PgServer } from "../test/support/postgres";
import { type BenchServer, startStdioServer } from "./lib/mcp-servers";
import { databaseOf } from "./lib/pg-stats";
import { median, percentile } from "./lib/stats";
import {
  type CallError,
  CallLog,
  FlowAbandoned,
  GATE_RESOLUTION,
  type ToolCaller,
  toGate,
} from "./pg-scale-flow";

export interface WritersSummary {
  readonly flows: number;
  readonly polls: number;
  readonly resolves: number;
  readonly staleToPolls: number;
  readonly staleToResolves: number;
  readonly unexplainedStale: number;
  /** Revisions a flow gained from its gate to the end, on average (1: only the resolve wrote). */
  readonly writesPerFlow: number;
  readonly seenP50Ms: number;
  readonly seenP99Ms: number;
  /** Flows whose resolution was refused with stale_state on every one of its 5 tries. */
  readonly resolutionsGivenUp: number;
  readonly errors: readonly CallError[];
}

export interface Call {
  readonly side: "poll" | "resolve";
  readonly t0: number;
  readonly t1: number;
  readonly status: string;
}

/**
 * The `stale_state` answers among one flow's calls that no write of the other process explains: a
 * refused call is explained when a call of the other side that succeeded and writes (a resolve
 * always; a poll when `pollsWrite`) overlapped it in time.
 */
export function unexplainedStale(calls: readonly Call[], pollsWrite: boolean): number {
  const writes = (o: Call) => !o.status.startsWith("error:") && (o.side === "resolve" || pollsWrite);
  return calls.filter(
    (c) =>
      c.status === "error:stale_state" &&
      !calls.some((o) => o.side !== c.side && writes(o) && o.t0 < c.t1 && o.t1 > c.t0),
  ).length;
}

const MAX_POLLS = 2_000;
const MAX_RESOLVE_TRIES = 5;

async function timedCall(
  caller: ToolCaller,
  tool: string,
  args: Record<string, unknown>,
  side: Call["side"],
  calls: Call[],
) {
  const t0 = performance.now();
  const answer = await caller.call(tool, args);
  const t1 = performance.now();
  const status = answer.status === "error" ? `error:${String(answer.error_type)}` : String(answer.status);
  calls.push({ side, t0, t1, status });
  return { answer, status, t1 };
}

/** One flow's race: the polls and resolves, when the agent saw the next step, and the errors. */
async function race(
  agent: ToolCaller,
  reviewer: ToolCaller,
  flowId: string,
  delayMs: number,
  errors: CallError[],
): Promise<{ calls: Call[]; seenAfterMs: number; gaveUp: boolean }> {
  const calls: Call[] = [];
  let resolvedAt = Number.NaN;
  // The resolution lost every race it was allowed: a measured outcome (starvation of the
  // resolving process), not an error of the harness.
  let gaveUp = false;
  let resolverDone = false;
  const resolve = (async () => {
    await new Promise((r) => setTimeout(r, delayMs));
    for (let attempt = 1; attempt <= MAX_RESOLVE_TRIES; attempt++) {
      const { status, t1, answer } = await timedCall(
        reviewer,
        "stratum_gate_resolve",
        { flow_id: flowId, ...GATE_RESOLUTION },
        "resolve",
        calls,
      );
      if (status === "execute_step") {
        resolvedAt = t1;
        return;
      }
      if (status !== "error:stale_state") {
        errors.push({ tool: "stratum_gate_resolve", code: status, message: String(answer.message ?? "") });
        return;
      }
    }
    gaveUp = true;
  })().finally(() => {
    resolverDone = true;
  });
  let seenAt = Number.NaN;
  for (let n = 0; n < MAX_POLLS; n++) {
    // Once the resolver has given up, nothing will change: one more poll, then stop.
    const last = resolverDone && gaveUp;
    const { status, t1, answer } = await timedCall(
      agent,
      "stratum_resume",
      { flow_id: flowId },
      "poll",
      calls,
    );
    if (status === "execute_step") {
      seenAt = t1;
      break;
    }
    if (status !== "await_gate" && status !== "error:stale_state") {
      errors.push({ tool: "stratum_resume", code: status, message: String(answer.message ?? "") });
      break;
    }
    if (last) break;
  }
  await resolve;
  if (Number.isNaN(seenAt) && !gaveUp)
    errors.push({
      tool: "stratum_resume",
      code: "starved",
      message: `no next step after ${MAX_POLLS} polls`,
    });
  return { calls, seenAfterMs: seenAt - resolvedAt, gaveUp };
}

function revisions(pg: PgServer, database: string, ids: readonly string[]): Map<string, number> {
  if (ids.length === 0) return new Map(); // no flow reached its gate: `IN ()` is not SQL
  const list = ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(", ");
  const out = pg.psql(
    `SELECT flow_id || ' ' || revision FROM stratum.flows WHERE flow_id IN (${list})`,
    database,
  );
  const map = new Map<string, number>();
  for (const line of out.trim().split("\n")) {
    const [id, revision] = line.trim().split(" ");
    if (id !== undefined && id !== "") map.set(id, Number(revision));
  }
  return map;
}

export async function benchWriters(
  repoDir: string,
  pg: PgServer,
  root: string,
  flows: number,
): Promise<WritersSummary> {
  const url = pg.createDatabase("pg_scale_writers");
  const database = databaseOf(url);
  const env = { STRATUM_STORE: url, STRATUM_HOME: join(root, "home") };
  const servers: BenchServer[] = [];
  try {
    servers.push(await startStdioServer(repoDir, root, env));
    servers.push(await startStdioServer(repoDir, root, env));
    const agent = await servers[0]!.session();
    const reviewer = await servers[1]!.session();
    const setup = new CallLog();
    const ids: string[] = [];
    for (let i = 0; i < flows; i++) {
      try {
        ids.push(await toGate(agent, setup, `race ${i}`));
      } catch (e) {
        if (!(e instanceof FlowAbandoned)) throw e;
      }
    }
    const errors: CallError[] = [...setup.errors];
    const atGate = revisions(pg, database, ids);
    // Every flow races at once: the servers are busy, as they are in a team.
    const results = await Promise.all(ids.map((id, i) => race(agent, reviewer, id, (i * 7) % 40, errors)));
    const atEnd = revisions(pg, database, ids);
    const gained = ids.map((id) => (atEnd.get(id) ?? Number.NaN) - (atGate.get(id) ?? Number.NaN));
    const unexplained = results.reduce(
      // Polls count as writers only when the flow gained more revisions after its gate than its
      // one resolution.
      (sum, { calls }, k) => sum + unexplainedStale(calls, (gained[k] ?? 0) > 1),
      0,
    );
    const all = results.flatMap((r) => r.calls);
    const seen = results.map((r) => r.seenAfterMs).filter(Number.isFinite);
    return {
      flows: ids.length,
      polls: all.filter((c) => c.side === "poll").length,
      resolves: all.filter((c) => c.side === "resolve").length,
      staleToPolls: all.filter((c) => c.side === "poll" && c.status === "error:stale_state").length,
      staleToResolves: all.filter((c) => c.side === "resolve" && c.status === "error:stale_state").length,
      unexplainedStale: unexplained,
      writesPerFlow: gained.reduce((a, b) => a + b, 0) / Math.max(1, gained.length),
      seenP50Ms: median(seen),
      seenP99Ms: percentile(seen, 99),
      resolutionsGivenUp: results.filter((r) => r.gaveUp).length,
      errors,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
  }
}
