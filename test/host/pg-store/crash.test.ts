// Crash safety on the PostgreSQL store (the file store's version is
// test/interpreter/engine/crash/crash.test.ts): the built `stratum-mcp` on a database is driven
// over MCP with LOOP_SPEC `main` flows (iterations, retries, a sub-flow per pass, on_fail routing,
// gate revise/approve; the driver of the file-store test) and SIGKILLed at random moments, mostly
// while a call is in flight, KILLS times. After every kill:
//   - every flow in the database decodes (decodeStoredFlow over PgFlowStore.read): a commit is all
//     or nothing, whatever the moment the server died;
//   - its revision is the one read after the last answered call, or the next one (committed, the
//     answer lost with the process) — never older; no acknowledged flow vanished;
//   - a NEW server resumes every flow that changed (and every one in progress) with exactly the
//     payload its stored state calls for, then drives each main flow in progress two moves further
//     with exactly the expected responses — and goes on driving until it is killed in turn.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgFlowStore } from "../../../host/pg-store/pg-store";
import type { StratumApi } from "../../../interpreter/api";
import type { Response, Wire } from "../../../interpreter/wire/wire";
import { PyDict } from "../../../stdlib/values/value";
import { isFinished, isMainFlow, PLAN_MOVE, touchedFlows } from "../../interpreter/engine/crash/driver";
import { planMain, playNext, resumeAndDrive } from "../../interpreter/engine/crash/play";
import { readState } from "../../interpreter/engine/crash/stored-flows";
import { McpStratumApi } from "../../mcp/support/mcp-api";
import { type McpOnStore, sleep, startMcpOpened, unexpectedOf, usePostgres } from "./support";

const KILLS = 36;
/** `main` flows each server keeps in progress. */
const ACTIVE_FLOWS = 2;

const pg = usePostgres();
let url: string;
/** The test's own reader of the database (never the server under test). */
let store: PgFlowStore;

beforeAll(async () => {
  url = pg().createDatabase("crash");
  store = new PgFlowStore(url);
  await store.open();
});
afterAll(async () => {
  await store?.close();
});

interface Tally {
  calls: number;
  /** Kills that found a call in flight (its answer never came). */
  inFlight: number;
  /** A flow one revision past its last acknowledgement after a kill: committed, answer lost. */
  unacknowledged: number;
  resumed: number;
  driven: number;
}

/**
 * The StratumApi of one server; every protocol deviation lands in `problems`. Its answers' nested
 * objects come back as dicts (kind-preserving decoding): the driver reads `child_step.flow_id`
 * as the engine's own answers give it, so the top level's dicts become plain objects.
 */
function apiOf(server: McpOnStore): StratumApi & { readonly problems: string[] } {
  const mcp = new McpStratumApi(async () => server.server.client);
  return new Proxy(mcp, {
    get(target, key, receiver) {
      const member: unknown = Reflect.get(target, key, receiver);
      if (typeof member !== "function") return member;
      return async (...args: unknown[]) => withPlainObjects(await member.apply(target, args));
    },
  });
}

function withPlainObjects(response: Response): Response {
  const out: Record<string, Wire> = {};
  for (const [key, value] of Object.entries(response)) {
    out[key] =
      value instanceof PyDict
        ? Object.fromEntries([...value.entries.values()].map(([k, v]) => [String(k), v]))
        : value;
  }
  return out;
}

/** Records the stored revision of every flow a call may have written (the call was answered). */
async function ack(ids: readonly string[], lastAck: Map<string, number>): Promise<void> {
  for (const id of ids) lastAck.set(id, (await store.read(id))?.revision ?? 0);
}

/** Drives flows on `server` until it is killed `delayMs` from now; throws on any wrong answer. */
async function driveUntilKilled(
  server: McpOnStore,
  api: StratumApi & { readonly problems: string[] },
  delayMs: number,
  lastAck: Map<string, number>,
  tally: Tally,
): Promise<void> {
  let killed = false;
  const kill = sleep(delayMs).then(async () => {
    killed = true;
    await server.kill();
  });
  const active: string[] = [];
  for (const { flowId } of await store.list()) {
    const state = await readState(store, flowId);
    if (state !== null && isMainFlow(state) && !isFinished(state)) active.push(flowId);
  }
  try {
    while (!killed) {
      while (active.length < ACTIVE_FLOWS) {
        const response = await planMain(api);
        tally.calls += 1;
        await ack(touchedFlows(PLAN_MOVE, null, response), lastAck);
        active.push(String(response.flow_id));
      }
      for (const id of [...active]) {
        const played = await playNext(api, store, id);
        if (played === null) {
          active.splice(active.indexOf(id), 1);
          continue;
        }
        tally.calls += 1;
        await ack(touchedFlows(played.move, played.view, played.response), lastAck);
      }
    }
  } catch (e) {
    // Only the kill may end the loop: the call in flight then fails with the closed connection,
    // and a call made after the process died (between the kill and the loop's next look at
    // `killed`) is refused by the client as not connected.
    const message = String(e);
    if (!killed || !/Connection closed|Not connected/.test(message)) throw e;
    if (/Connection closed/.test(message)) tally.inFlight += 1;
  }
  await kill;
}

/** The checks after a kill (see the header), with a new server; then `lastAck` is what is stored. */
async function verifyAfterKill(
  server: McpOnStore,
  api: StratumApi & { readonly problems: string[] },
  lastAck: Map<string, number>,
  tokens: Map<string, string>,
  tally: Tally,
): Promise<void> {
  const flows = (await store.list()).map((f) => f.flowId);
  const present = new Set(flows);
  for (const id of lastAck.keys()) expect(present.has(id), `acknowledged flow ${id} vanished`).toBe(true);
  const toResume: string[] = [];
  for (const id of flows) {
    const state = await readState(store, id); // throws when the stored flow does not decode
    expect(state, id).not.toBeNull();
    const acknowledged = lastAck.get(id) ?? 0;
    expect([acknowledged, acknowledged + 1], `revision of ${id}`).toContain(state!.revision);
    if (state!.revision === acknowledged + 1) tally.unacknowledged += 1;
    if (tokens.get(id) !== (await store.token(id)) || !isFinished(state!)) toResume.push(id);
  }
  await resumeAndDrive(api, store, toResume, tally);
  expect(api.problems).toEqual([]);
  expect(unexpectedOf(server)).toBe("");
  for (const { flowId } of await store.list()) {
    const stored = await store.read(flowId);
    if (stored === null) continue;
    lastAck.set(flowId, stored.revision);
    tokens.set(flowId, stored.token);
  }
}

describe("the MCP server on PostgreSQL under SIGKILL", () => {
  it(`keeps every flow whole, at an acknowledged revision (or the next) and resumable over ${KILLS} kills`, async () => {
    const started = Date.now();
    const delays = fc.sample(fc.integer({ min: 0, max: 250 }), { numRuns: KILLS, seed: 17_2024 });
    const lastAck = new Map<string, number>();
    const tokens = new Map<string, string>();
    const tally: Tally = { calls: 0, inFlight: 0, unacknowledged: 0, resumed: 0, driven: 0 };
    // The next server starts while the current one runs, so its start-up overlaps; the random
    // kill moments fall after its store is open, among its flow calls.
    let next = startMcpOpened(url);
    try {
      for (const delayMs of delays) {
        const current = await next;
        next = startMcpOpened(url);
        const api = apiOf(current);
        await verifyAfterKill(current, api, lastAck, tokens, tally);
        await driveUntilKilled(current, api, delayMs, lastAck, tally);
        expect(api.problems).toEqual([]);
      }
      await verifyAfterKill(await next, apiOf(await next), lastAck, tokens, tally);
    } finally {
      await (await next).close();
    }

    const states = await Promise.all((await store.list()).map((f) => readState(store, f.flowId)));
    const mains = states.filter((s) => s !== null && isMainFlow(s));
    const completed = mains.filter((s) => s!.status === "complete").length;
    process.stderr.write(
      `pg crash test: ${KILLS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s; ${tally.calls} answered calls, ` +
        `${tally.inFlight} kills with a call in flight, ${tally.unacknowledged} commits whose answer was lost; ` +
        `${tally.resumed} resumes and ${tally.driven} moves by new servers; ${mains.length} main flows ` +
        `(${completed} complete), ${states.length} flows\n`,
    );
    // Most kills cut a call off (the others land between calls, in the test's own reads).
    expect(tally.inFlight).toBeGreaterThan(KILLS / 4);
    expect(completed).toBeGreaterThan(0);
  }, 240_000);
});
