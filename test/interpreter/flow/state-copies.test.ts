// Working copies and checkpoint snapshots (flow/clone.ts) and clearing (docs/reference/runtime.md §5).
import { describe, expect, it } from "vitest";
import { applySnapshot, cloneRun, cloneState, takeSnapshot } from "../../../interpreter/flow/clone";
import { appendItem, putTiming } from "../../../interpreter/flow/edits";
import { skipRecord } from "../../../interpreter/flow/records";
import { clearFrom } from "../../../interpreter/flow/routing";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { copyState, keptCopyOfState } from "../../../interpreter/store/delta";
import { PyFloat } from "../../../stdlib/values/value";
import { json, runOf } from "./fixtures";

const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - {id: a, intent: "A"}
      - {id: b, intent: "B", max_iterations: 3}
      - {id: c, intent: "C"}
`;

function populated() {
  const run = runOf(SPEC, "main");
  const s = run.state;
  for (const id of ["a", "b", "c"]) {
    s.step_outputs.set(id, json(`{"id": "${id}"}`));
    s.attempts.set(id, 1);
    s.iteration_outcome.set(id, "exit_max");
    s.iteration_best.set(id, null);
    s.iteration_accumulator.set(id, { items: [1], seen: ["1"], dry_streak: 0 });
    s.iterations.set(id, []);
  }
  s.records.push(skipRecord(run, "a", "r"));
  s.active_iteration = {
    step_id: "b",
    round: 0,
    max_iterations: 3,
    exit_criterion: null,
    score_expr: null,
    accumulate: null,
    accumulate_key: null,
    count: 1,
    started_at: new PyFloat(0),
    status: "active",
  };
  s.active_child_flow_id = "child";
  return run;
}

describe("clearFrom", () => {
  it("clears the target and every later step except the preserved ones; records stay", () => {
    const run = populated();
    clearFrom(run, "b", new Set(["c"]));
    const s = run.state;
    expect([...s.step_outputs.keys()]).toEqual(["a", "c"]);
    expect([...s.attempts.keys()]).toEqual(["a", "c"]);
    for (const m of [s.iteration_outcome, s.iteration_best, s.iteration_accumulator, s.iterations]) {
      expect([...m.keys()]).toEqual(["a", "c"]);
    }
    expect(s.active_iteration).toBeNull();
    expect(s.active_child_flow_id).toBeNull();
    expect(s.records.length).toBe(1);
  });

  it("keeps an active iteration on an earlier step", () => {
    const run = populated();
    clearFrom(run, "c");
    expect(run.state.active_iteration?.step_id).toBe("b");
    expect([...run.state.step_outputs.keys()]).toEqual(["a", "b"]);
  });
});

describe("copies", () => {
  it("a working copy shares the containers; its logged changes roll back exactly", () => {
    const run = populated();
    const before = encodeFlowState(run.state);
    const copy = cloneRun(run);
    expect(copy.state.step_outputs).toBe(run.state.step_outputs);
    clearFrom(copy, "a");
    appendItem(copy, "records", skipRecord(copy, "b", "x"));
    putTiming(copy, "stepDispatchedAt", "a", 5);
    expect(run.state.step_outputs.size).toBe(0); // changed in place …
    copy.edits?.rollback();
    expect(encodeFlowState(run.state)).toBe(before); // … and undone
    expect(run.timing.stepDispatchedAt.size).toBe(0);
    const again = cloneState(run.state);
    again.active_iteration!.count = 99;
    again.iteration_accumulator.get("a")!.items.push(2);
    expect(encodeFlowState(run.state)).toBe(before);
  });

  it("a snapshot is independent of later changes and applying it leaves it intact", () => {
    const run = populated();
    const original = encodeFlowState(run.state);
    const snap = takeSnapshot(run.state);
    clearFrom(run, "a");
    run.state.current_idx = 3;
    run.state.round = 2;
    applySnapshot(run.state, snap);
    expect(encodeFlowState(run.state)).toBe(original);
    run.state.iteration_accumulator.get("a")!.items.push(7);
    run.state.step_outputs.clear();
    applySnapshot(run.state, snap);
    expect(encodeFlowState(run.state)).toBe(original);
  });
});

describe("the key order of copies", () => {
  it("a working copy and the store's copies keep the key order of new and decoded states (their text's)", () => {
    const made = populated();
    const decoded = decodeFlowState(encodeFlowState(made.state));
    if (!decoded.ok) throw new Error(decoded.reason);
    for (const state of [made.state, runOf(SPEC, "main").state, decoded.state]) {
      const keys = Object.keys(state);
      const copies = [cloneRun({ ...made, state }).state, copyState(state), keptCopyOfState(state)];
      for (const copy of copies) {
        expect(Object.keys(copy)).toEqual(keys);
        expect(encodeFlowState(copy)).toBe(encodeFlowState(state));
      }
    }
  });
});
