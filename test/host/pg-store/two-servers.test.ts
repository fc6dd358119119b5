// Two `stratum-mcp` processes on ONE PostgreSQL database (docs/guides/team-store.md), sharing
// flows. Proven here, through the real MCP SDK client and the built server:
//   - no double success: many concurrent stratum_step_done / stratum_gate_resolve calls for the
//     same step, from both servers at once, have exactly one winner; every other call answers
//     stale_state (it lost the race to commit) or the normal execution error of a step that has
//     moved on (its server reloaded the flow first) — nothing else;
//   - no lost update: the flow as `stratumc query flow` reads it (a third process) holds one trace
//     record per step with the winner's result, and the stored revision counts the plan plus
//     exactly the winning calls;
//   - a server sees the other's commits: B, which had answered on the flow, continues from A's
//     change on its very next call (it reloads the flow).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pg as pg_ } from "../../../host/pg-store/pg-library";
import { ensureSchema } from "../../../host/pg-store/schema";
import type { ToolAnswer } from "../../mcp/support/mcp-api";
import {
  CHAIN_SPEC,
  databaseOf,
  eventually,
  type McpOnStore,
  plain,
  queryFlow,
  STEPS,
  startMcp,
  storedRevisionSql,
  unexpectedOf,
  usePostgres,
} from "./support";

const pg = usePostgres();
/** Concurrent calls per server for each step. */
const PER_SERVER = 4;
/** Flows raced at the same time. */
const FLOWS = 3;

let url: string;
let a: McpOnStore;
let b: McpOnStore;

beforeEach(async () => {
  url = pg().createDatabase("two");
  // One after the other: the first creates the schema (concurrent first starts: see the last test).
  a = await startMcp(url);
  b = await startMcp(url);
}, 60_000);

afterEach(async () => {
  const codes = await Promise.all([a.close(), b.close()]);
  expect(codes).toEqual([0, 0]);
  expect([...a.problems, ...b.problems]).toEqual([]);
  expect(unexpectedOf(a) + unexpectedOf(b)).toBe("");
}, 60_000);

async function planChain(server: McpOnStore): Promise<string> {
  const planned = plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
  expect(planned).toMatchObject({ status: "execute_step", step_id: "s1" });
  return String(planned.flow_id);
}

type Kind = "won" | "stale" | "moved on";

/** How a raced call ended; throws on anything but a win, stale_state or the moved-on error. */
type MovedOn = (r: Record<string, unknown>) => boolean;

function kindOf(answer: ToolAnswer, winStatus: string, movedOn: MovedOn): Kind {
  const r = plain(answer);
  if (r.status === winStatus) return "won";
  if (r.error_type === "stale_state") {
    expect(String(r.message)).toMatch(/was changed by another process .* not applied — retry it/);
    return "stale";
  }
  if (r.status === "error" && movedOn(r)) return "moved on";
  throw new Error(`unexpected answer to a raced call: ${answer.text}`);
}

interface Race {
  readonly winner: string;
  readonly kinds: Kind[];
}

/** PER_SERVER calls from each server at once; returns the label of the one winner. */
async function race(
  call: (server: McpOnStore, label: string) => Promise<ToolAnswer>,
  prefix: string,
  winStatus: string,
  movedOn: MovedOn,
): Promise<Race> {
  const labels: string[] = [];
  const calls: Promise<ToolAnswer>[] = [];
  for (let k = 0; k < PER_SERVER; k++) {
    for (const [name, server] of [
      ["A", a],
      ["B", b],
    ] as const) {
      const label = `${prefix}-${name}${k}`;
      labels.push(label);
      calls.push(call(server, label));
    }
  }
  const answers = await Promise.all(calls);
  const kinds = answers.map((answer) => kindOf(answer, winStatus, movedOn));
  const winners = labels.filter((_, i) => kinds[i] === "won");
  expect(winners, `${prefix}: one winner`).toHaveLength(1);
  return { winner: winners[0]!, kinds };
}

/** Races every step of one flow and its gate; checks the stored outcome; returns the answers' kinds. */
async function raceFlow(flowId: string): Promise<Kind[]> {
  const before = storedRevisionSql(pg(), url, flowId);
  const kinds: Kind[] = [];
  const winners = new Map<string, string>();
  for (const [i, step] of STEPS.entries()) {
    const last = i === STEPS.length - 1;
    const { winner, kinds: k } = await race(
      (server, label) =>
        server.call("stratum_step_done", { flow_id: flowId, step_id: step, result: { w: label } }),
      `${flowId.slice(0, 8)}-${step}`,
      last ? "await_gate" : "execute_step",
      // The flow is at the next step: a function step says which; the gate asks for gate_resolve.
      last
        ? (r) => r.error_type === "gate_step_requires_gate_resolve"
        : (r) => r.message === `Expected step '${STEPS[i + 1]}', got '${step}'`,
    );
    winners.set(step, winner);
    kinds.push(...k);
  }
  const gate = await race(
    (server, label) =>
      server.call("stratum_gate_resolve", {
        flow_id: flowId,
        step_id: "approve",
        outcome: "approve",
        rationale: label,
        resolved_by: "human",
      }),
    `${flowId.slice(0, 8)}-approve`,
    "complete",
    (r) => r.error_type === "flow_already_complete",
  );
  kinds.push(...gate.kinds);

  // A third process reads what is stored: every step once, with the winner's result.
  const stored = queryFlow(url, flowId);
  expect(stored.status).toBe("complete");
  const records = stored.records as { step_id: string; type: string; rationale?: string }[];
  expect(records.map((r) => r.step_id)).toEqual([...STEPS, "approve"]);
  expect(records.at(-1)?.rationale).toBe(gate.winner);
  const outputs = stored.step_outputs as Record<string, { w: string }>;
  for (const step of STEPS) expect(outputs[step], step).toEqual({ w: winners.get(step) });
  // One commit per winning call and none for any other.
  expect(storedRevisionSql(pg(), url, flowId)).toBe(before + STEPS.length + 1);
  return kinds;
}

describe("two MCP servers on one PostgreSQL database", () => {
  it("lets exactly one of many concurrent calls for a step win, and loses none", async () => {
    const ids = await Promise.all(Array.from({ length: FLOWS }, () => planChain(a)));
    // B answers on every flow first, so it holds them in memory when the races start (a resume
    // that changes nothing commits nothing: the plan's revision 1 stays).
    for (const id of ids) {
      expect(plain(await b.call("stratum_resume", { flow_id: id }))).toMatchObject({ step_id: "s1" });
      expect(storedRevisionSql(pg(), url, id)).toBe(1);
    }
    const kinds = (await Promise.all(ids.map(raceFlow))).flat();
    const count = (k: Kind) => kinds.filter((x) => x === k).length;
    expect(count("won")).toBe(FLOWS * (STEPS.length + 1));
    expect(kinds).toHaveLength(FLOWS * (STEPS.length + 1) * 2 * PER_SERVER);
    process.stderr.write(
      `two-servers test: ${kinds.length} raced calls: ${count("won")} won, ${count("stale")} stale_state, ` +
        `${count("moved on")} saw the step moved on\n`,
    );
  }, 120_000);

  it("answers a call on B from the state A committed", async () => {
    const id = await planChain(a);
    const step = (server: McpOnStore, stepId: string, w: string) =>
      server.call("stratum_step_done", { flow_id: id, step_id: stepId, result: { w } }).then(plain);
    expect(await step(b, "s1", "B")).toMatchObject({ status: "execute_step", step_id: "s2" });
    // A held the flow at s1 (it planned it): it reloads and goes on from B's commit.
    expect(await step(a, "s2", "A")).toMatchObject({ status: "execute_step", step_id: "s3" });
    // B held it at s2: its next call sees A's commit at once (no stale answer, no retry).
    expect(await step(b, "s3", "B")).toMatchObject({ status: "execute_step", step_id: "s4" });
    expect(await step(a, "s3", "A")).toMatchObject({
      status: "error",
      error_type: "execution_error",
      message: "Expected step 's4', got 's3'",
    });
    const audit = plain(await a.call("stratum_audit", { flow_id: id }));
    const trace = audit.trace as { step_id: string }[];
    expect(trace.map((r) => r.step_id)).toEqual(["s1", "s2", "s3"]);
    expect(queryFlow(url, id).step_outputs).toEqual({ s1: { w: "B" }, s2: { w: "A" }, s3: { w: "B" } });
    expect(storedRevisionSql(pg(), url, id)).toBe(4);
  }, 60_000);
});

/** schema.ts's MIGRATION_LOCK (not exported): the advisory lock every migration takes. */
const MIGRATION_LOCK = 7_305_170_017;

describe("a server whose migration waited on another's", () => {
  // Servers starting at once on a new database: each reads the schema version (0), then migrates
  // in a transaction under an advisory lock. One that waited on the lock must see the migration
  // the other committed meanwhile and not run it again. Made deterministic: the test holds the
  // lock, lets the server find version 0 and wait, then migrates and commits itself.
  it("finds the schema another process created while it waited, and comes up", async () => {
    const fresh = pg().createDatabase("fresh");
    const holder = new pg_.Client({ connectionString: fresh });
    await holder.connect();
    let server: McpOnStore | null = null;
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const starting = startMcp(fresh);
      starting.catch(() => undefined);
      const waiting = await eventually(
        () =>
          pg()
            .psql(
              "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
              databaseOf(fresh),
            )
            .trim() === "1",
        30_000,
      );
      expect(waiting, "the server waits on the migration lock").toBe(true);
      const tx = {
        query: async (text: string, params?: readonly unknown[]) =>
          (await holder.query(text, params as unknown[])).rows,
      };
      await ensureSchema({ ...tx, transaction: (body) => body(tx) }, "test");
      await holder.query("COMMIT");
      server = await starting;
      expect(
        plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} })),
      ).toMatchObject({
        status: "execute_step",
      });
    } finally {
      await holder.end();
      if (server !== null) {
        expect(await server.close()).toBe(0);
        expect(unexpectedOf(server)).toBe("");
      }
    }
  }, 60_000);
});
