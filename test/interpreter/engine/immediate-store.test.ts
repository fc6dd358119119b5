// A store that answers at once (FlowStore.immediate: the memory store) is read and committed
// without promises, and must behave exactly as the same store asked through its promises: the
// same answers, the same stored texts, the same refusals.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import {
  type ChangeToken,
  type FlowStore,
  StaleStateError,
  type StoreBatch,
  textWrite,
} from "../../../interpreter/store/store";
import { fromJsonValue } from "../../../stdlib/index";
import { makeTestApi } from "../support/make-test-api";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Do it"
    input: {}
    output: Out
    ensure:
      - "result.v != 'bad'"
    retries: 2
  review:
    mode: gate
flows:
  main:
    input: {}
    steps:
      - id: a
        function: work
        inputs: {}
      - id: approve
        function: review
        on_approve: ~
        on_revise: a
        on_kill: ~
`;

/** The memory store asked only through its promises, as the engine asks a file or database store. */
function promisesOnly(inner: MemoryStore): FlowStore {
  return {
    keepsStates: true,
    read: (id) => inner.read(id),
    token: (id) => inner.token(id),
    commit: (batch) => inner.commit(batch),
    list: () => inner.list(),
    remove: (id) => inner.remove(id),
  };
}

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "stratum-immediate-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

/** A gate revised once, a failed ensure retried, a poll that changes nothing, an unknown flow. */
async function session(api: StratumApi): Promise<{ answers: string[]; flowId: string }> {
  const answers: string[] = [];
  const say = (r: unknown) => answers.push(JSON.stringify(r));
  const planned = await api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({}) });
  say(planned);
  const flowId = String(planned.flow_id);
  const result = (v: string) => fromJsonValue({ v });
  say(await api.stepDone({ flow_id: flowId, step_id: "a", result: result("bad") }));
  say(await api.stepDone({ flow_id: flowId, step_id: "a", result: result("x") }));
  say(await api.resume({ flow_id: flowId }));
  const revise = { step_id: "approve", rationale: "again", resolved_by: "human" as const };
  say(await api.gateResolve({ flow_id: flowId, outcome: "revise", ...revise }));
  say(await api.stepDone({ flow_id: flowId, step_id: "a", result: result("y") }));
  say(await api.gateResolve({ flow_id: flowId, outcome: "approve", ...revise }));
  say(await api.audit({ flow_id: flowId }));
  say(await api.resume({ flow_id: "no-such-flow" }));
  return { answers, flowId };
}

it("an engine answers and stores the same on a store that answers at once as through its promises", async () => {
  const atOnce = new MemoryStore();
  const awaited = new MemoryStore();
  expect(atOnce.immediate).toBeDefined();
  expect(promisesOnly(awaited).immediate).toBeUndefined();
  const a = await session(makeTestApi({ cwd, store: atOnce }).api);
  const b = await session(makeTestApi({ cwd, store: promisesOnly(awaited) }).api);
  expect(a.answers).toEqual(b.answers);
  expect(a.answers.some((x) => x.includes("ensure_failed"))).toBe(true);
  expect(a.answers.at(-3)).toContain('"complete"');
  expect(await atOnce.read(a.flowId)).toEqual(await awaited.read(b.flowId));
  expect(await atOnce.list()).toEqual(await awaited.list());
});

it("a restarted engine reloads a flow from a store that answers at once", async () => {
  const store = new MemoryStore();
  const t = makeTestApi({ cwd, store });
  const planned = await t.api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({}) });
  const flowId = String(planned.flow_id);
  await t.api.stepDone({ flow_id: flowId, step_id: "a", result: fromJsonValue({ v: "x" }) });
  const other = t.fresh();
  expect(await other.resume({ flow_id: flowId })).toMatchObject({ status: "await_gate", step_id: "approve" });
  expect(t.loggedErrors).toEqual([]);
});

it("the immediate commit refuses a stale write by throwing, and changes nothing", async () => {
  const store = new MemoryStore();
  const text = JSON.stringify({ flow_id: "f1", revision: 1 });
  const tokens = store.immediate?.commit({ writes: [textWrite("f1", text, 0)], deletes: [] });
  expect(tokens?.get("f1")).toBe(await store.token("f1"));
  const stale = { writes: [textWrite("f1", JSON.stringify({ flow_id: "f1", revision: 6 }), 5)], deletes: [] };
  expect(() => store.immediate?.commit(stale)).toThrow(StaleStateError);
  await expect(store.commit(stale)).rejects.toThrow(StaleStateError);
  expect(store.immediate?.read("f1")).toEqual(await store.read("f1"));
  expect(store.immediate?.read("f1")?.text).toBe(text);
});

it("a memory store whose subclass overrides its commit is asked through it", async () => {
  class Counting extends MemoryStore {
    commits = 0;
    override commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
      this.commits += 1;
      return super.commit(batch);
    }
  }
  const store = new Counting();
  expect(store.immediate).toBeUndefined();
  const t = makeTestApi({ cwd, store });
  await t.api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({}) });
  expect(store.commits).toBe(1);
});
