// The registry's memory bound: the least recently used flows leave memory and come
// back from the store on demand, with exactly the behaviour they had in memory — including the
// in-process dispatch time of a gate, which a reload must not reset.
import { describe, expect, it } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type {
  ChangeToken,
  FlowStore,
  StoreBatch,
  StoredFlow,
  StoredFlowInfo,
} from "../../../interpreter/store/store";
import { plain, planOk, result } from "../flow/api-fixtures";
import { makeTestApi } from "../support/make-test-api";

const TWO_STEPS = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: b
        intent: "B"
`;

const WORK_THEN_GATE = `version: "0.2"
functions:
  g:
    mode: gate
    timeout: 60
flows:
  main:
    input: {}
    steps:
      - id: w
        intent: "W"
      - id: g1
        function: g
        on_approve: ~
        on_revise: w
        on_kill: ~
`;

/** A flow of WORK_THEN_GATE whose gate has just been dispatched. */
async function atGate(api: StratumApi): Promise<string> {
  const id = String((await planOk(api, WORK_THEN_GATE)).flow_id);
  const r = await api.stepDone({ flow_id: id, step_id: "w", result: result("{}") });
  expect(plain(r)).toMatchObject({ status: "await_gate", step_id: "g1" });
  return id;
}

/** A store that counts full reads: a flow served from memory costs none. */
class CountingStore implements FlowStore {
  reads = 0;
  constructor(private readonly inner: FlowStore) {}
  get keepsStates(): boolean | undefined {
    return this.inner.keepsStates;
  }
  read(flowId: string): Promise<StoredFlow | null> {
    this.reads++;
    return this.inner.read(flowId);
  }
  token(flowId: string): Promise<ChangeToken | null> {
    return this.inner.token(flowId);
  }
  commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    return this.inner.commit(batch);
  }
  list(): Promise<readonly StoredFlowInfo[]> {
    return this.inner.list();
  }
  remove(flowId: string): Promise<boolean> {
    return this.inner.remove(flowId);
  }
}

describe("bounded registry", () => {
  it("keeps the most recently used flows in memory and reloads the others with the same behaviour", async () => {
    const store = new CountingStore(new MemoryStore());
    const h = makeTestApi({
      cwd: "/nowhere",
      store,
      registryLimits: { maxFlows: 2, maxSize: 1e9, maxTimings: 10 },
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(String((await planOk(h.api, TWO_STEPS)).flow_id));
    expect(store.reads).toBe(0);

    // The two newest are in memory: no read.
    await h.api.stepDone({ flow_id: ids[4] as string, step_id: "a", result: result('{"n": 4}') });
    await h.api.stepDone({ flow_id: ids[3] as string, step_id: "a", result: result('{"n": 3}') });
    expect(store.reads).toBe(0);

    // The oldest left memory; it is read back once and then served from memory.
    const first = ids[0] as string;
    const r = await h.api.stepDone({ flow_id: first, step_id: "a", result: result('{"n": 0}') });
    expect(plain(r)).toMatchObject({ status: "execute_step", step_id: "b" });
    expect(store.reads).toBe(1);
    const done = await h.api.stepDone({ flow_id: first, step_id: "b", result: result('{"n": 0}') });
    expect(plain(done)).toMatchObject({ status: "complete" });
    expect(store.reads).toBe(1);
  });

  it("evicts by the size of the stored text as well as by count", async () => {
    const store = new CountingStore(new MemoryStore());
    // Each flow's text is well over 100 characters: only the newest fits.
    const h = makeTestApi({
      cwd: "/nowhere",
      store,
      registryLimits: { maxFlows: 100, maxSize: 100, maxTimings: 10 },
    });
    const a = String((await planOk(h.api, TWO_STEPS)).flow_id);
    const b = String((await planOk(h.api, TWO_STEPS)).flow_id);
    await h.api.stepDone({ flow_id: b, step_id: "a", result: result("{}") });
    expect(store.reads).toBe(0); // the newest always stays, however large
    await h.api.stepDone({ flow_id: a, step_id: "a", result: result("{}") });
    expect(store.reads).toBe(1);
  });

  it("weighs a flow committed to the memory store (nothing encoded) by about the length of its text", async () => {
    // The memory store encodes nothing at commit: the registry's weight is an estimate of the text.
    const measured = makeTestApi({ cwd: "/nowhere" });
    const one = String((await planOk(measured.api, TWO_STEPS)).flow_id);
    await measured.api.stepDone({ flow_id: one, step_id: "a", result: result("{}") });
    const length = (await measured.store.read(one))?.text.length ?? 0;
    expect(length).toBeGreaterThan(200);
    /** Whether the older of two such flows is still held with room for `room` characters. */
    const keepsBoth = async (room: number): Promise<boolean> => {
      const store = new CountingStore(new MemoryStore());
      const h = makeTestApi({
        cwd: "/nowhere",
        store,
        registryLimits: { maxFlows: 100, maxSize: room, maxTimings: 10 },
      });
      const a = String((await planOk(h.api, TWO_STEPS)).flow_id);
      const b = String((await planOk(h.api, TWO_STEPS)).flow_id);
      await h.api.stepDone({ flow_id: b, step_id: "a", result: result("{}") });
      await h.api.stepDone({ flow_id: a, step_id: "a", result: result("{}") });
      return store.reads === 0;
    };
    expect(await keepsBoth(2 * length)).toBe(true);
    expect(await keepsBoth(length / 2)).toBe(false);
  });

  it("a reloaded gate keeps its dispatch time: check_timeouts still kills it after the timeout", async () => {
    const h = makeTestApi({ cwd: "/nowhere", registryLimits: { maxFlows: 1, maxSize: 1e9, maxTimings: 10 } });
    const gated = await atGate(h.api);
    await planOk(h.api, TWO_STEPS); // pushes the gated flow out of memory
    h.clock.advanceWall(61_000);
    const r = await h.api.checkTimeouts({ flow_id: gated });
    expect(plain(r)).toMatchObject({ status: "killed", reason: "timeout" });
  });

  it("timings of evicted flows are bounded too: beyond the bound a reload is a restore (docs/reference/runtime.md §14.4)", async () => {
    const h = makeTestApi({ cwd: "/nowhere", registryLimits: { maxFlows: 1, maxSize: 1e9, maxTimings: 1 } });
    const gated = await atGate(h.api);
    await atGate(h.api);
    await planOk(h.api, TWO_STEPS); // the second gate's timing displaces the first's
    h.clock.advanceWall(61_000);
    const r = await h.api.checkTimeouts({ flow_id: gated });
    expect(plain(r)).toEqual({ status: "no_timeout", message: "Gate not yet dispatched" });
  });
});
