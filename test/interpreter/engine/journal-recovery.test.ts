// For random request sequences, the state recovered from a flow's snapshot and journal
// equals the state in memory after every call. Two engines get the same calls with the same clock
// and ids: one on a MemoryStore, which stores the complete text of the in-memory state at every
// commit, and one on the journaled FileFlowStore with a tiny snapshot threshold (so journals,
// snapshots and their replacement all happen). After every call, every flow read back from the
// file store (snapshot + journal, decodeStoredFlow) must encode byte for byte like the memory
// store's text, and both engines must have answered alike; restarts make the file engine reload
// every flow from its snapshot and journal. The same runs again on the PostgreSQL store
// (snapshot and delta rows, the same snapshot rule) against a real server.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckedSpec } from "../../../checker/ir/types";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { PgFlowStore } from "../../../host/pg-store/pg-store";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type { FlowStore } from "../../../interpreter/store/store";
import { decodeStoredFlow } from "../../../interpreter/store/stored-state";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { fromJsonValue } from "../../../stdlib/values/json";
import { type PgServer, startPostgres } from "../../support/postgres";
import { type Request, request, type StepRef, send } from "../properties/requests";
import { validSpec } from "../properties/spec-arbitrary";
import { makeTestApi, tempFileStore } from "../support/make-test-api";

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

let disposers: (() => void | Promise<void>)[] = [];
let server: PgServer | null = null;
beforeAll(async () => {
  disposers = [];
  server = await startPostgres();
});
afterAll(async () => {
  for (const dispose of disposers) await dispose();
  server?.destroy();
});

/** A journaled store with a tiny snapshot threshold, so journals, snapshots and their replacement all happen. */
type DurableStore = () => FlowStore;

const fileStore: DurableStore = () => {
  const temp = tempFileStore();
  disposers.push(temp.dispose);
  return new FileFlowStore(temp.home, { minSnapshotBytes: 2048 });
};

const pgStore: DurableStore = () => {
  const store = new PgFlowStore(server!.createDatabase("recovery"), { minSnapshotChars: 2048 });
  disposers.push(() => store.close());
  return store;
};

function decoded(text: string): FlowState {
  const d = decodeFlowState(text);
  if (!d.ok) throw new Error(d.reason);
  return d.state;
}

/** Every flow of the file store as the text of its recovered state. */
async function recovered(store: FlowStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const { flowId } of await store.list()) {
    const stored = await store.read(flowId);
    if (stored === null) continue;
    const state = decodeStoredFlow(stored);
    if (!state.ok) throw new Error(`${flowId} does not decode (${state.part}): ${state.reason}`);
    out.set(flowId, encodeFlowState(state.state));
  }
  return out;
}

async function inMemory(store: MemoryStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const { flowId } of await store.list()) out.set(flowId, (await store.read(flowId))?.text ?? "");
  return out;
}

interface Tally {
  calls: number;
  journaled: number;
}

async function drive(
  text: string,
  flag: boolean,
  moves: readonly Request[],
  tally: Tally,
  durableStore: DurableStore,
): Promise<void> {
  const memory = makeTestApi({ cwd: "/nowhere", store: new MemoryStore() });
  const files = durableStore();
  const durable = makeTestApi({ cwd: "/nowhere", store: files });
  const both = [memory, durable];
  const inputs = fromJsonValue({ flag });
  const [a, b] = await Promise.all(both.map((h) => h.api.plan({ spec: text, flow: "main", inputs })));
  expect(wireToPlain(b!)).toEqual(wireToPlain(a!));
  const root = String(a!.flow_id ?? a!.parent_flow_id);
  for (const r of moves) {
    const memoryStore = memory.store as MemoryStore;
    const current = await memoryStore.read(root);
    if (current === null) return;
    // The flow the call goes to: the deepest active child (sub-flow steps run there).
    let target = decoded(current.text);
    for (let depth = 0; target.active_child_flow_id !== null && depth < 4; depth++) {
      const child = await memoryStore.read(target.active_child_flow_id);
      if (child === null) break;
      target = decoded(child.text);
    }
    if (r.op === "restart") {
      // Both, so that both lose their dispatch times alike; the file engine then reloads from disk.
      for (const h of both) h.restart();
      continue;
    }
    if (r.op === "advance") {
      for (const h of both) h.clock.advance(r.seconds * 1000);
      continue;
    }
    const flowSteps = specOf.get(text)?.flows.get(target.flow_name)?.steps ?? [];
    const stepId = (ref: StepRef): string => {
      if (ref === "unknown") return "no_such_step";
      const at = ref === "current" ? target.current_idx : ref;
      return flowSteps[at % Math.max(1, flowSteps.length)]?.id ?? "none";
    };
    const atGate = flowSteps[target.current_idx]?.kind === "gate";
    const [ra, rb] = await Promise.all(both.map((h) => send(h.api, target.flow_id, r, stepId, atGate)));
    expect(wireToPlain(rb!), `${r.op}: the engines answered differently`).toEqual(wireToPlain(ra!));
    tally.calls++;
    const fromDisk = await recovered(files);
    const held = await inMemory(memoryStore);
    expect([...fromDisk.keys()].sort()).toEqual([...held.keys()].sort());
    for (const [id, textInMemory] of held) {
      if (fromDisk.get(id) !== textInMemory) {
        expect(fromDisk.get(id), `${r.op}: flow ${id} recovered from snapshot + journal`).toBe(textInMemory);
      }
      const journal = await files.read(id);
      if ((journal?.deltas.length ?? 0) > 0) tally.journaled++;
    }
  }
  expect(memory.loggedErrors).toEqual([]);
  expect(durable.loggedErrors).toEqual([]);
}

/** The checked spec of each generated spec text, recorded when the spec is generated. */
const specOf = new Map<string, CheckedSpec>();

const specs = validSpec({ forwardOnly: false }).map((s) => {
  specOf.set(s.text, s.ir);
  return s.text;
});

describe.each([
  ["the file store", fileStore, RUNS],
  ["the PostgreSQL store", pgStore, Math.ceil(RUNS / 2)],
] as const)("snapshot + journal recovery on %s", (_name, durableStore, runs) => {
  it("recovers, after every call, exactly the state the engine holds in memory", async () => {
    const tally: Tally = { calls: 0, journaled: 0 };
    await fc.assert(
      fc.asyncProperty(
        specs,
        fc.boolean(),
        fc.array(request, { minLength: 10, maxLength: 40 }),
        async (text, flag, moves) => {
          await drive(text, flag, moves, tally, durableStore);
        },
      ),
      { numRuns: runs },
    );
    if (runs >= 20) {
      expect(tally.calls).toBeGreaterThan(5 * runs);
      expect(tally.journaled).toBeGreaterThan(Math.ceil(1.25 * runs)); // flows read back from a journal, not a snapshot alone
    }
  }, 180_000);
});
