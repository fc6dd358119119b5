// In-place edits of working copies (interpreter/flow/edits.ts, edit-log.ts) and the delta the
// engine reads from them (engine/edit-delta.ts): what is logged, the delta (applied to the state
// before the edits it encodes like the working state), a rollback that restores the committed
// containers exactly (key order included), and fields reassigned during the call.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { editDelta } from "../../../interpreter/engine/edit-delta";
import { cloneRun, cloneState } from "../../../interpreter/flow/clone";
import { appendItem, deleteEntry, putEntry, putTiming } from "../../../interpreter/flow/edits";
import { skipRecord } from "../../../interpreter/flow/records";
import type { FlowRun } from "../../../interpreter/flow/run";
import { encodeFlowState } from "../../../interpreter/store/codec";
import {
  applyDelta,
  DELTA_KEYS,
  decodeDelta,
  diffFlowState,
  encodeDelta,
  type FlowDelta,
} from "../../../interpreter/store/delta";
import { runOf } from "./fixtures";

const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - {id: a, intent: "A"}
      - {id: b, intent: "B"}
      - {id: c, intent: "C"}
      - {id: d, intent: "D"}
`;

/** A committed run with outputs and attempts for a, b, c (in that order) and one record. */
function committed(): FlowRun {
  const run = runOf(SPEC, "main");
  for (const id of ["a", "b", "c"]) {
    run.state.step_outputs.set(id, `out ${id}`);
    run.state.attempts.set(id, 1);
  }
  run.state.records.push(skipRecord(run, "a", "r"));
  run.timing.stepDispatchedAt.set("a", 1);
  return run;
}

/** The working copy's delta, through its text, as the journal store will read it. */
function deltaOf(base: FlowRun, work: FlowRun): FlowDelta {
  if (work.edits === undefined) throw new Error("not a working copy");
  const decoded = decodeDelta(encodeDelta(editDelta(base.state, work.state, work.edits)));
  if ("problem" in decoded) throw new Error(decoded.problem);
  return decoded;
}

/** The delta applied to `before` (a copy of the state before the edits) encodes like the working state. */
function expectExactDelta(before: FlowState, base: FlowRun, work: FlowRun): FlowDelta {
  const delta = deltaOf(base, work);
  expect(encodeFlowState(applyDelta(before, delta))).toBe(encodeFlowState(work.state));
  return delta;
}

describe("edits of a working copy", () => {
  it("sets and pushes on shared containers in place, O(1), and logs them for the delta", () => {
    const base = committed();
    const before = cloneState(base.state);
    const work = cloneRun(base);
    putEntry(work, "step_outputs", "b", "new b");
    putEntry(work, "step_outputs", "d", "out d");
    putEntry(work, "attempts", "d", 1);
    appendItem(work, "records", skipRecord(work, "d", "x"));
    work.state.current_idx = 4;
    expect(base.state.step_outputs.get("d")).toBe("out d"); // in place: the containers are shared
    const delta = expectExactDelta(before, base, work);
    expect(delta.set).toEqual({ current_idx: 4 });
    expect([...(delta.put.step_outputs ?? new Map()).keys()]).toEqual(["b", "d"]);
    expect([...(delta.put.attempts ?? new Map()).keys()]).toEqual(["d"]);
    expect(delta.append.records).toHaveLength(1);
    expect(delta.delete).toEqual({});
  });

  it("a rollback restores values and key order, also after deleting and putting committed keys again", () => {
    const base = committed();
    const text = encodeFlowState(base.state);
    const work = cloneRun(base);
    putEntry(work, "step_outputs", "a", "changed");
    putEntry(work, "step_outputs", "d", "new");
    deleteEntry(work, "step_outputs", "b");
    putEntry(work, "step_outputs", "b", "back, now last");
    deleteEntry(work, "attempts", "a");
    appendItem(work, "records", skipRecord(work, "b", "x"));
    putTiming(work, "stepDispatchedAt", "b", 7);
    expect([...base.state.step_outputs.keys()]).toEqual(["a", "c", "d", "b"]);
    work.edits?.rollback();
    expect(encodeFlowState(base.state)).toBe(text);
    expect([...base.state.step_outputs.keys()]).toEqual(["a", "b", "c"]);
    expect([...base.timing.stepDispatchedAt]).toEqual([["a", 1]]);
  });

  it("a deleted committed key put again goes last: deleted and put by the delta", () => {
    const base = committed();
    const before = cloneState(base.state);
    const work = cloneRun(base);
    deleteEntry(work, "step_outputs", "a");
    putEntry(work, "step_outputs", "d", "out d");
    putEntry(work, "step_outputs", "a", "again");
    expect([...work.state.step_outputs.keys()]).toEqual(["b", "c", "d", "a"]);
    const delta = expectExactDelta(before, base, work);
    expect(delta.delete.step_outputs).toEqual(["a"]);
    expect([...(delta.put.step_outputs ?? new Map()).keys()]).toEqual(["d", "a"]);
  });

  it("a key added and deleted again in the call is no change", () => {
    const base = committed();
    const work = cloneRun(base);
    putEntry(work, "attempts", "d", 1);
    deleteEntry(work, "attempts", "d");
    deleteEntry(work, "attempts", "zz"); // absent: nothing
    const delta = deltaOf(base, work);
    expect(delta.put).toEqual({});
    expect(delta.delete).toEqual({});
  });

  it("a reassigned field is the working copy's own: changed directly, never logged, `set` or diffed", () => {
    const base = committed();
    const before = cloneState(base.state);
    const committedRecords = base.state.records;
    const work = cloneRun(base);
    work.state.records = [];
    appendItem(work, "records", skipRecord(work, "c", "y"));
    expect(committedRecords).toHaveLength(1);
    expect(work.edits?.changed(committedRecords)).toBe(false);
    const delta = expectExactDelta(before, base, work);
    expect(delta.set.records).toHaveLength(1);
    work.edits?.rollback();
    expect(encodeFlowState(base.state)).toBe(encodeFlowState(before));
  });

  it("a field changed in place and then replaced is `set` (what the committed container held is gone)", () => {
    const base = committed();
    const before = cloneState(base.state);
    const work = cloneRun(base);
    appendItem(work, "records", skipRecord(work, "b", "x"));
    appendItem(work, "rounds", work.state.records); // the revise of gates.ts
    work.state.records = [];
    putEntry(work, "attempts", "a", 2);
    work.state.attempts = new Map([["z", 1]]);
    const delta = expectExactDelta(before, base, work);
    expect(Object.keys(delta.set).sort()).toEqual(["attempts", "records"]);
    expect(delta.append.rounds).toHaveLength(1);
    work.edits?.rollback();
    expect(encodeFlowState(base.state)).toBe(encodeFlowState(before));
  });

  it("a flow without a log (created in the call) and a closed log change containers directly", () => {
    const created = committed();
    putEntry(created, "attempts", "d", 3);
    expect(created.state.attempts.get("d")).toBe(3);
    const base = committed();
    const work = cloneRun(base);
    putEntry(work, "attempts", "a", 5);
    work.edits?.close();
    putEntry(work, "attempts", "b", 6);
    work.edits?.rollback(); // nothing is logged any more
    expect(base.state.attempts.get("a")).toBe(5);
    expect(base.state.attempts.get("b")).toBe(6);
  });
});

type Op =
  | { readonly kind: "put"; readonly key: string; readonly value: number }
  | { readonly kind: "delete"; readonly key: string }
  | { readonly kind: "push" }
  | { readonly kind: "replace" };

const mapKey = fc.constantFrom("a", "b", "c", "d", "e");
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("put" as const), key: mapKey, value: fc.nat(9) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("delete" as const), key: mapKey }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("push" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("replace" as const) }) },
);

function apply(work: FlowRun, o: Op): void {
  switch (o.kind) {
    case "put":
      putEntry(work, "attempts", o.key, o.value);
      putTiming(work, "stepDispatchedAt", o.key, o.value);
      return;
    case "delete":
      deleteEntry(work, "attempts", o.key);
      return;
    case "push":
      appendItem(work, "records", skipRecord(work, "a", "p"));
      return;
    case "replace":
      work.state.attempts = new Map(work.state.attempts);
      return;
  }
}

describe("random edits", () => {
  it("the delta is exact and a rollback restores the committed state and key order", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const base = committed();
        const before = cloneState(base.state);
        const text = encodeFlowState(base.state);
        const timing = [...base.timing.stepDispatchedAt];
        const work = cloneRun(base);
        for (const o of ops) apply(work, o);
        expectExactDelta(before, base, work);
        work.edits?.rollback();
        expect(encodeFlowState(base.state)).toBe(text);
        expect([...base.timing.stepDispatchedAt]).toEqual(timing);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the delta's keys", () => {
  it("editDelta reads every key of a delta once, in file key order (its groups' order)", () => {
    const base = committed();
    const work = cloneRun(base);
    const read: string[] = [];
    const spy = new Proxy(base.state, {
      get(target, key, receiver) {
        if (typeof key === "string") read.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    if (work.edits === undefined) throw new Error("a working copy has a log");
    editDelta(spy, work.state, work.edits);
    expect(read).toEqual(DELTA_KEYS);
  });

  it("fields reassigned from another flow's state give diffFlowState's delta, text for text", () => {
    const other = committed();
    other.state.flow_id = "flow-2";
    other.state.step_outputs = new Map([["d", "out d"]]);
    other.state.records.push(skipRecord(other, "b", "q"));
    other.state.current_idx = 2;
    other.state.round_start_step_id = "b";
    other.state.parent_flow_id = "p";
    other.state.attempts = new Map([["a", 2]]);
    const source = other.state as unknown as Record<string, unknown>;
    fc.assert(
      fc.property(fc.subarray([...DELTA_KEYS]), (keys) => {
        const base = committed();
        const work = cloneRun(base);
        const fields = work.state as unknown as Record<string, unknown>;
        for (const key of keys) fields[key] = source[key];
        if (work.edits === undefined) throw new Error("a working copy has a log");
        const delta = encodeDelta(editDelta(base.state, work.state, work.edits));
        expect(delta).toBe(encodeDelta(diffFlowState(base.state, work.state)));
      }),
      { numRuns: 100 },
    );
  });
});

describe("what a working copy's log treats as shared", () => {
  it("exactly the committed run's containers (state fields and timing maps), until it is closed", () => {
    const fields = (run: FlowRun): unknown[] =>
      Object.values(run.state).filter((v) => v instanceof Map || Array.isArray(v));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 10 }), fc.boolean(), (ops, commit) => {
        const base = committed();
        const shared = [...fields(base), base.timing.stepDispatchedAt, base.timing.gateDispatchedAt];
        const work = cloneRun(base);
        for (const o of ops) apply(work, o);
        const log = work.edits;
        if (log === undefined) throw new Error("a working copy has a log");
        for (const c of shared) expect(log.shares(c)).toBe(true);
        // A field the call replaced, copies, empty containers and non-containers are not shared.
        for (const c of fields(work)) expect(log.shares(c)).toBe(shared.includes(c));
        for (const c of [new Map(base.state.attempts), [...base.state.records], new Map(), [], "x", null, 1])
          expect(log.shares(c)).toBe(false);
        if (commit) log.close();
        else log.rollback();
        for (const c of shared) expect(log.shares(c)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
