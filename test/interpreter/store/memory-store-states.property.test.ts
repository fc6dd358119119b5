// The memory store keeps states, not texts (StoreWrite.value): fed a new flow's state and then
// random changes, it reads back exactly the text a store of texts and deltas would hold (the
// codec's and the journal's reading of the same writes), and the writer's later in-place changes
// of its own state (the next call's working copy) change nothing it holds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { diffFlowState, encodeDelta, type FlowDelta } from "../../../interpreter/store/delta";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type { StoreWrite } from "../../../interpreter/store/store";
import { decodeStoredFlow } from "../../../interpreter/store/stored-state";
import { arbitraryFlowState } from "../support/arbitrary-state";

const ID = "00000000-0000-4000-8000-000000000001";

/** A state of its own (through the codec): nothing shared with `state`. */
function copy(state: FlowState): FlowState {
  const d = decodeFlowState(encodeFlowState(state));
  if (!d.ok) throw new Error(d.reason);
  return d.state;
}

/** A write as the engine's commit makes it, with values; its texts must never be asked for. */
function valueWrite(
  state: FlowState,
  change: FlowDelta | null,
  expectedRevision: number,
  flowId = ID,
): StoreWrite {
  return {
    flowId,
    text: () => {
      throw new Error("the memory store encoded a written text");
    },
    get delta(): string | null {
      throw new Error("the memory store encoded a written delta");
    },
    finished: false,
    expectedRevision,
    revision: expectedRevision + 1,
    value: { state, change },
  };
}

/** Empties a list or a map of the state. */
function empty(v: unknown): void {
  if (Array.isArray(v)) v.length = 0;
  else if (v instanceof Map) v.clear();
}

/**
 * Changes in place everything a later call's working copy may change in place (what it copies,
 * flow/clone.ts): every list and map of the state, the lists in rounds, iterations, archived
 * iterations, audits and review logs, the accumulators and the active iteration. Shared immutable
 * data (user data, records, snapshots) is left alone, as calls leave it.
 */
function vandalise(state: FlowState): void {
  for (const list of state.rounds) empty(list);
  for (const lists of [state.iterations, state.child_audits, state.review_log]) {
    for (const list of lists.values()) empty(list);
  }
  for (const map of state.archived_iterations) {
    for (const list of map.values()) empty(list);
    empty(map);
  }
  for (const acc of state.iteration_accumulator.values()) {
    empty(acc.items);
    empty(acc.seen);
    (acc as { dry_streak: number }).dry_streak = -1;
  }
  if (state.active_iteration !== null) (state.active_iteration as { count: number }).count = -1;
  for (const v of Object.values(state)) empty(v);
}

/**
 * The change with every map that was empty and is set written as puts instead, as the engine's
 * edit log writes entries put into a committed map (diffFlowState sets a map that had none).
 */
function asPuts(change: FlowDelta, committed: FlowState): FlowDelta {
  const set: Record<string, unknown> = { ...change.set };
  const put: Record<string, unknown> = { ...change.put };
  const before = committed as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(set)) {
    const old = before[key];
    if (old instanceof Map && old.size === 0 && value instanceof Map) {
      put[key] = value;
      delete set[key];
    }
  }
  return { ...change, set, put } as FlowDelta;
}

describe("the memory store's kept states", () => {
  it("read answers what decoding the same texts and deltas gives, whatever the writer does afterwards", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitraryFlowState, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (states, fromText) => {
          const store = new MemoryStore();
          // The journaled stores' reading of the same writes: the first text, then every delta.
          let snapshot = "";
          const deltas: string[] = [];
          let committed: FlowState | null = null;
          for (const [i, s] of states.entries()) {
            const next = copy({ ...s, flow_id: ID, revision: i + 1, status: "running" });
            if (committed === null) {
              snapshot = encodeFlowState(next);
              // A flow stored by another process as text, or created by this one's engine.
              if (fromText) store.put(ID, snapshot);
              else await store.commit({ writes: [valueWrite(next, null, 0)], deletes: [] });
            } else {
              const change = diffFlowState(committed, next);
              deltas.push(encodeDelta(change, ID));
              await store.commit({ writes: [valueWrite(next, change, i)], deletes: [] });
            }
            const expected = decodeStoredFlow({ text: snapshot, deltas, revision: i + 1, token: "" });
            if (!expected.ok) throw new Error(expected.reason);
            const text = encodeFlowState(expected.state);
            committed = copy(next);
            vandalise(next);
            const read = await store.read(ID);
            expect(read?.text).toBe(text);
            expect(read?.revision).toBe(i + 1);
            expect(read?.deltas).toEqual([]);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a snapshot restored after later changes reads as when it was taken, however often it is restored", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitraryFlowState, { minLength: 3, maxLength: 6 }),
        fc.nat(),
        async (states, at) => {
          const store = new MemoryStore();
          const taken = 1 + (at % (states.length - 1));
          let committed: FlowState | null = null;
          let snapshot: ReturnType<MemoryStore["snapshot"]> | null = null;
          let textThen = "";
          const commitAll = async (from: number) => {
            for (let i = from; i < states.length; i++) {
              const next = copy({
                ...(states[i] as FlowState),
                flow_id: ID,
                revision: i + 1,
                status: "running",
              });
              const change = committed === null ? null : diffFlowState(committed, next);
              await store.commit({ writes: [valueWrite(next, change, i)], deletes: [] });
              committed = copy(next);
              vandalise(next);
              if (i + 1 === taken) {
                snapshot = store.snapshot([ID]);
                textThen = (await store.read(ID))?.text ?? "";
                if (from > 0) return;
              }
            }
          };
          await commitAll(0);
          // Restored twice, with the later changes made again in between: both times as taken.
          for (let round = 0; round < 2; round++) {
            store.restore(snapshot!);
            expect((await store.read(ID))?.text).toBe(textThen);
            committed = copy({
              ...(states[taken - 1] as FlowState),
              flow_id: ID,
              revision: taken,
              status: "running",
            });
            await commitAll(taken);
          }
          store.restore(snapshot!);
          expect((await store.read(ID))?.text).toBe(textThen);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("flows created with empty maps stay apart: one flow's changes never show in another's", async () => {
    const OTHER = "00000000-0000-4000-8000-000000000002";
    await fc.assert(
      fc.asyncProperty(
        arbitraryFlowState,
        fc.array(arbitraryFlowState, { minLength: 2, maxLength: 5 }),
        async (other, states) => {
          const store = new MemoryStore();
          // Every map of both new flows empty (the store may keep them as one shared map).
          const blank = (s: FlowState, flowId: string): FlowState => {
            const out = copy({ ...s, flow_id: flowId, revision: 1, status: "running" });
            for (const v of Object.values(out)) if (v instanceof Map) v.clear();
            return out;
          };
          const otherState = blank(other, OTHER);
          let committed = blank(states[0] as FlowState, ID);
          await store.commit({
            writes: [valueWrite(committed, null, 0), valueWrite(otherState, null, 0, OTHER)],
            deletes: [],
          });
          const otherText = encodeFlowState(otherState);
          const snapshot = store.snapshot([ID]);
          for (const [i, s] of states.slice(1).entries()) {
            const next = copy({ ...s, flow_id: ID, revision: i + 2, status: "running" });
            await store.commit({
              writes: [valueWrite(next, asPuts(diffFlowState(committed, next), committed), i + 1)],
              deletes: [],
            });
            expect((await store.read(ID))?.text).toBe(encodeFlowState(next));
            committed = copy(next);
            vandalise(next);
            expect((await store.read(OTHER))?.text).toBe(otherText);
          }
          // A restored flow's kept (copied on write) state is apart from the others too.
          store.restore(snapshot);
          const again = copy({ ...(states[1] as FlowState), flow_id: ID, revision: 2, status: "running" });
          const first = blank(states[0] as FlowState, ID);
          await store.commit({
            writes: [valueWrite(again, asPuts(diffFlowState(first, again), first), 1)],
            deletes: [],
          });
          expect((await store.read(ID))?.text).toBe(encodeFlowState(again));
          expect((await store.read(OTHER))?.text).toBe(otherText);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("refuses a change of a flow removed since it was read, without encoding anything", async () => {
    const store = new MemoryStore();
    const [state] = fc.sample(arbitraryFlowState, { numRuns: 1, seed: 7 });
    const first = copy({ ...(state as FlowState), flow_id: ID, revision: 1, status: "running" });
    await store.commit({ writes: [valueWrite(first, null, 0)], deletes: [] });
    await store.remove(ID);
    const next = copy({ ...first, revision: 2 });
    await expect(
      store.commit({ writes: [valueWrite(next, diffFlowState(first, next), 1)], deletes: [] }),
    ).rejects.toThrow(`Flow '${ID}' was removed by another process`);
  });
});
