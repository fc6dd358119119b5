// The interpreter's registry of step kinds agrees with the kinds table: a descriptor for every
// kind, the step_mode docs/reference/runtime.md §11.1 gives each, server-side tasks and task reports exactly
// for the kinds the table calls parallel, an audit key for the judgement of each member kind.
import { describe, expect, it } from "vitest";
import { STEP_KIND_TABLE, STEP_KINDS } from "../../../../checker";
import { STEP_MODES } from "../../../../checker/base/step-kinds";
import { FLOW_KINDS, pollCancelsRest } from "../../../../interpreter/flow/kinds/index";

describe("FLOW_KINDS", () => {
  it("has one descriptor per kind of the table", () => {
    expect(Object.keys(FLOW_KINDS).sort()).toEqual([...STEP_KINDS].sort());
  });

  it("names each kind's step_mode by its type value, a judge step's by its key, a gate's as a function step", () => {
    for (const kind of STEP_KINDS) {
      // A pipeline is recorded as the reference records it: a parallel_dispatch step.
      const mode = kind === "pipeline" ? "parallel_dispatch" : kind;
      const byKey = (STEP_MODES as readonly string[]).includes(kind);
      expect(FLOW_KINDS[kind].stepMode).toBe(STEP_KIND_TABLE[kind].typeValue || byKey ? mode : "function");
    }
  });

  it("has server-side tasks and stratum_parallel_done reports exactly for the parallel kinds", () => {
    for (const kind of STEP_KINDS) {
      const parallel: boolean = STEP_KIND_TABLE[kind].parallel;
      expect(FLOW_KINDS[kind].server !== undefined, kind).toBe(parallel);
      expect(FLOW_KINDS[kind].parallelDone !== undefined, kind).toBe(parallel);
    }
  });

  it("gives each member kind its own audit key and no other kind one", () => {
    const keys = STEP_KINDS.flatMap((k) => {
      const key = FLOW_KINDS[k].judgementKey;
      expect(key !== undefined, k).toBe(STEP_KIND_TABLE[k].members);
      return key === undefined ? [] : [key];
    });
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(["debates", "quorum_votes", "race_outcomes"]);
  });
});

describe("pollCancelsRest", () => {
  it("is true only for an outcome that carries a race's winner", () => {
    const won = { race: { winner: "c1", cancel: ["c2"], rejected: [] } };
    expect(pollCancelsRest({ outcome: won })).toBe(true);
    expect(pollCancelsRest({ outcome: { status: "race_pending" } })).toBe(false);
    expect(pollCancelsRest({ outcome: { quorum: { winner: "r1", rejected: [] } } })).toBe(false);
    expect(pollCancelsRest({ outcome: null })).toBe(false);
    expect(pollCancelsRest({ status: "error" })).toBe(false);
  });
});
