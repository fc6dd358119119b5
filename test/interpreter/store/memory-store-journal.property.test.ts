// The memory store keeps a commit's delta instead of the whole text: a read still answers exactly
// the text of the latest state, the kept deltas folded in.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { diffFlowState, encodeDelta } from "../../../interpreter/store/delta";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { arbitraryFlowState } from "../support/arbitrary-state";

const ID = "00000000-0000-4000-8000-000000000001";

/** A fresh copy of a state, as the engine's working copy (through the codec). */
function copy(state: FlowState): FlowState {
  const d = decodeFlowState(encodeFlowState(state));
  if (!d.ok) throw new Error(d.reason);
  return d.state;
}

describe("the memory store's kept deltas", () => {
  it("read answers the text of the last committed state; the whole text is not encoded for a delta", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryFlowState, { minLength: 2, maxLength: 4 }), async (states) => {
        const store = new MemoryStore();
        let committed: FlowState | null = null;
        for (const [i, s] of states.entries()) {
          const next = copy({ ...s, flow_id: ID, revision: i + 1, status: "running" });
          const text = encodeFlowState(next);
          let encoded = false;
          const delta = committed === null ? null : encodeDelta(diffFlowState(committed, next), ID);
          await store.commit({
            writes: [
              {
                flowId: ID,
                text: () => {
                  encoded = true;
                  return text;
                },
                delta,
                finished: false,
                expectedRevision: i,
                revision: i + 1,
              },
            ],
            deletes: [],
          });
          // Short states: the journal stays under the snapshot threshold, so a delta is kept.
          if (delta !== null) expect(encoded).toBe(false);
          committed = next;
          const read = await store.read(ID);
          expect(read?.text).toBe(text);
          expect(read?.revision).toBe(i + 1);
        }
      }),
      { numRuns: 30 },
    );
  });
});
