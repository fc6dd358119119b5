// The engine (docs/reference/runtime.md §1.1, docs/reference/runtime.md §14.3–14.4, docs/reference/runtime.md §15): all-or-nothing calls, reloading a flow that
// another process changed, store conflicts, restoring after a restart, unexpected failures.
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import {
  type ChangeToken,
  type FlowStore,
  StaleStateError,
  type StoreBatch,
  StoreLockedError,
  textWrite,
} from "../../../interpreter/store/store";
import { harness, plain, planOk, result, stored } from "../flow/api-fixtures";
import { makeTestApi } from "../support/make-test-api";

const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: b
        intent: "B"
        inputs: {x: "$.steps.a.output.x"}
`;

describe("atomic calls", () => {
  it("a step_done whose next dispatch fails changes nothing: same stored text, attempt not counted", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    const before = (await h.store.read(id))?.text;
    const r = await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"y": 1}') });
    expect(plain(r)).toEqual({
      status: "error",
      success: false,
      error_type: "execution_error",
      message: "Key 'x' not found in $.steps.a.output — available keys: ['y']",
      flow_name: "main",
      step_id: "b",
      input: "x",
    });
    expect((await h.store.read(id))?.text).toBe(before);
    // The in-memory copy is unchanged too: a corrected result is accepted as the first attempt.
    const ok = await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') });
    expect(plain(ok)).toMatchObject({ status: "execute_step", step_id: "b", inputs: { x: 1 } });
    const state = await stored(h.store, id);
    expect(state.attempts.get("a")).toBe(1);
    expect(state.revision).toBe(2);
  });
});

describe("other processes", () => {
  it("a call notices a newer revision in the store and reloads before processing", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    const other = h.fresh(); // a second process over the same store
    await other.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 5}') });
    // The first process still has revision 1 in memory; it must see the other's step.
    const r = await h.api.stepDone({ flow_id: id, step_id: "b", result: result('{"done": true}') });
    expect(plain(r)).toMatchObject({ status: "complete", output: { done: true } });
    expect((await stored(h.store, id)).revision).toBe(3);
  });

  it("a flow whose file disappeared is not found", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    await h.store.remove(id);
    expect(plain(await h.api.resume({ flow_id: id }))).toMatchObject({ error_type: "flow_not_found" });
  });

  it("stale_state: nothing applied, the in-memory copy dropped, the retry reloads and succeeds", async () => {
    const store = new FlakyStore(new MemoryStore());
    const h = makeTestApi({ cwd: "/nowhere", store });
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    store.failNext = new StaleStateError(id, 7, 1);
    const r = await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') });
    expect(plain(r)).toEqual({
      status: "error",
      error_type: "stale_state",
      message: `Flow '${id}' was changed by another process (revision 7 on disk, 1 expected); the call was not applied — retry it`,
    });
    expect((await stored(store, id)).revision).toBe(1);
    store.reads = 0;
    const retry = await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') });
    expect(retry.step_id).toBe("b");
    expect(store.reads).toBe(1); // reloaded from the store
  });

  it("state_locked: nothing applied", async () => {
    const store = new FlakyStore(new MemoryStore());
    const h = makeTestApi({ cwd: "/nowhere", store });
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    store.failNext = new StoreLockedError(id);
    expect(plain(await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') }))).toEqual({
      status: "error",
      error_type: "state_locked",
      message: `Flow '${id}' is locked by another process; retry the call`,
    });
    expect((await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') })).step_id).toBe(
      "b",
    );
  });

  it("an unexpected failure is internal_error, logged, and changes nothing", async () => {
    const store = new FlakyStore(new MemoryStore());
    const h = makeTestApi({ cwd: "/nowhere", store });
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    store.failNext = new Error("disk on fire");
    expect(plain(await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') }))).toEqual({
      status: "error",
      success: false,
      error_type: "internal_error",
      message: "An unexpected error occurred.",
    });
    expect(h.loggedErrors.join("\n")).toContain("disk on fire");
    expect((await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') })).step_id).toBe(
      "b",
    );
  });
});

describe("restart", () => {
  it("restores a flow from the store and continues where it stood; durations count from the restore", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"x": 1}') });
    h.clock.advance(10_000);
    const api = h.restart();
    expect(plain(await api.audit({ flow_id: id }))).toMatchObject({
      steps_completed: 1,
      total_duration_ms: 0,
    });
    h.clock.advance(250);
    const r = await api.stepDone({ flow_id: id, step_id: "b", result: result('{"done": 1}') });
    expect(plain(r)).toMatchObject({ status: "complete", total_duration_ms: 250 });
    expect((await stored(h.store, id)).records.at(-1)).toMatchObject({ step_id: "b", duration_ms: 250 });
  });

  it("a stored flow whose spec no longer validates does not restore", async () => {
    const store = new MemoryStore();
    const h = makeTestApi({ cwd: "/nowhere", store });
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    const s = await store.read(id);
    const broken = s!.text.replace('\\"0.2\\"', '\\"9.9\\"');
    expect(broken).not.toBe(s!.text);
    await store.commit({
      writes: [textWrite(id, broken.replace('"revision": 1', '"revision": 2'), 1)],
      deletes: [],
    });
    expect(plain(await h.restart().resume({ flow_id: id }))).toMatchObject({ error_type: "flow_not_found" });
  });
});

/** A store that fails its next commit with a chosen error and counts reads. */
class FlakyStore implements FlowStore {
  failNext: Error | null = null;
  reads = 0;
  constructor(private readonly inner: FlowStore) {}
  read(flowId: string) {
    this.reads++;
    return this.inner.read(flowId);
  }
  token(flowId: string) {
    return this.inner.token(flowId);
  }
  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    const failure = this.failNext;
    this.failNext = null;
    if (failure !== null) throw failure;
    return this.inner.commit(batch);
  }
  list() {
    return this.inner.list();
  }
  remove(flowId: string) {
    return this.inner.remove(flowId);
  }
}
