// Putting flows back as they were (MemoryStore.snapshot/restore, EngineApi.snapshotFlows/
// restoreFlows; the fuzzer's exhaustive exploration continues paths from a decision's state):
// after both are put back, the engine answers as it did from that state, serves the flows from
// memory without reading the store, and a state the calls after the snapshot changed is not seen.
// With only the store put back, the engine reloads what changed and still answers alike.
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine } from "../../../interpreter/engine/create-api";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { plain, planOk, result } from "../flow/api-fixtures";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";

const THREE_STEPS = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
        ensure: ["result.n > 0"]
        retries: 3
      - id: b
        intent: "B"
      - id: c
        intent: "C"
`;

/** A MemoryStore that counts full reads. */
class CountingStore extends MemoryStore {
  reads = 0;
  override read(flowId: string) {
    this.reads++;
    return super.read(flowId);
  }
}

function engine(store: MemoryStore) {
  return createEngine({
    store,
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: "/nowhere",
    files: () => null,
    workspace: nodeWorkspace,
    verifyEdits: true,
  });
}

describe("flows put back as they were", () => {
  it.each([
    ["the store and the engine's runs", true],
    ["the store only (the engine reloads)", false],
  ])("answer as from the snapshot's state: %s", async (_name, withRuns) => {
    const store = new CountingStore();
    const api = engine(store);
    const id = String((await planOk(api, THREE_STEPS)).flow_id);
    // A failed attempt first: the snapshot holds a retry count and a record.
    await api.stepDone({ flow_id: id, step_id: "a", result: result('{"n": 0}') });
    const stored = store.snapshot([id]);
    const runs = api.snapshotFlows([id]);

    const first = plain(await api.stepDone({ flow_id: id, step_id: "a", result: result('{"n": 1}') }));
    const done = plain(await api.stepDone({ flow_id: id, step_id: "b", result: result('{"n": 2}') }));
    expect(first).toMatchObject({ status: "execute_step", step_id: "b" });
    expect(done).toMatchObject({ status: "execute_step", step_id: "c" });

    const reads = store.reads;
    for (let round = 0; round < 2; round++) {
      store.restore(stored);
      if (withRuns) api.restoreFlows(runs);
      // The same call from the same state gets the same answer; b is not done any more.
      expect(plain(await api.stepDone({ flow_id: id, step_id: "a", result: result('{"n": 1}') }))).toEqual(
        first,
      );
      expect(plain(await api.stepDone({ flow_id: id, step_id: "b", result: result('{"n": 2}') }))).toEqual(
        done,
      );
    }
    if (withRuns) expect(store.reads).toBe(reads);
    else expect(store.reads).toBeGreaterThan(reads);

    // Another branch from the same state: a failed attempt is still counted from the snapshot's.
    store.restore(stored);
    if (withRuns) api.restoreFlows(runs);
    const again = plain(await api.stepDone({ flow_id: id, step_id: "a", result: result('{"n": 0}') }));
    expect(again).toMatchObject({ status: "ensure_failed", retries_remaining: 1 });
  });
});
