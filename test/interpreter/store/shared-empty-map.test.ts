// The memory store keeps a state's empty maps as one map common to every flow (keptCopyOfState):
// applyDeltaInPlace gives a flow a map of its own before putting into it, and any other write into
// that map throws instead of reaching every flow that holds it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FlowState } from "../../../interpreter/base/flow-state";
import {
  applyDeltaInPlace,
  copyState,
  type FlowDelta,
  keptCopyOfState,
} from "../../../interpreter/store/delta";
import type { PyValue } from "../../../stdlib/index";
import { arbitraryFlowState } from "../support/arbitrary-state";

/** The state with every map emptied (a new flow's). */
function blank(state: FlowState): FlowState {
  const out = copyState(state);
  for (const v of Object.values(out)) if (v instanceof Map) v.clear();
  return out;
}

const maps = (state: FlowState): Map<string, unknown>[] =>
  Object.values(state).filter((v): v is Map<string, unknown> => v instanceof Map);

describe("a state's shared empty maps", () => {
  const [sample] = fc.sample(arbitraryFlowState, { numRuns: 1, seed: 11 });
  const state = blank(sample as FlowState);

  it("are one map across states, which refuses writes", () => {
    const a = maps(keptCopyOfState(state));
    const b = maps(keptCopyOfState(state));
    expect(a.length).toBeGreaterThan(1);
    expect(new Set([...a, ...b]).size).toBe(1);
    const shared = a[0] as Map<string, unknown>;
    expect(() => shared.set("k", 1)).toThrow(/shared empty map/);
    expect(() => shared.delete("k")).toThrow(/shared empty map/);
    expect(() => shared.clear()).toThrow(/shared empty map/);
    expect(shared.size).toBe(0);
  });

  it("are maps of the state's own with the default copy", () => {
    const own = maps(copyState(state));
    expect(new Set(own).size).toBe(own.length);
    for (const m of own) m.set("k", 1);
    expect(maps(keptCopyOfState(state)).every((m) => m.size === 0)).toBe(true);
  });

  it("are replaced by a map of the flow's own when a change puts into one", () => {
    const a = keptCopyOfState(state);
    const b = keptCopyOfState(state);
    const change: FlowDelta = {
      revision: a.revision + 1,
      status: "running",
      set: {},
      append: {},
      put: { step_outputs: new Map<string, PyValue>([["s1", "done"]]) },
      delete: {},
    };
    applyDeltaInPlace(a, change);
    expect(a.step_outputs.get("s1")).toBe("done");
    expect(b.step_outputs.size).toBe(0);
  });
});
