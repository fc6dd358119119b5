// humanDecisionsUndone (interpreter/flow/human-decisions.ts): the person's gate decisions a revert
// to a checkpoint would erase, whatever rounds the records sit in, compared by value (a store round
// trip makes new objects).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GateRecord, TraceRecord } from "../../../interpreter/base/flow-state";
import { humanDecisionsUndone } from "../../../interpreter/flow/human-decisions";

const gate = (step_id: string, resolved_by: GateRecord["resolved_by"], round = 0): GateRecord => ({
  step_id,
  outcome: "approve",
  rationale: "ok",
  resolved_by,
  duration_ms: 5,
  type: "gate",
  round,
  round_start_step_id: null,
});

const arbRecord: fc.Arbitrary<TraceRecord> = fc
  .tuple(fc.constantFrom("a", "b"), fc.constantFrom("human", "agent", "system" as const), fc.nat(2))
  .map(([s, by, round]) => gate(s, by as GateRecord["resolved_by"], round));

describe("humanDecisionsUndone", () => {
  it("finds the human decisions past the checkpoint, not the agent's or the system's", () => {
    const before = { records: [gate("a", "human")], rounds: [] };
    const after = {
      records: [gate("a", "human"), gate("b", "agent"), gate("b", "human"), gate("c", "system")],
      rounds: [],
    };
    expect(humanDecisionsUndone(after, before).map((r) => r.step_id)).toEqual(["b"]);
  });

  it("counts a decision archived in an earlier round as held by a checkpoint that has it in its current round", () => {
    const checkpoint = { records: [gate("a", "human")], rounds: [] };
    const current = { records: [], rounds: [[gate("a", "human")]] };
    expect(humanDecisionsUndone(current, checkpoint)).toEqual([]);
    expect(humanDecisionsUndone(current, { records: [], rounds: [] })).toHaveLength(1);
  });

  it("property: a checkpoint holding a prefix of the trace undoes exactly the later human decisions", () => {
    fc.assert(
      fc.property(fc.array(arbRecord, { maxLength: 12 }), fc.nat(12), (trace, cut) => {
        const at = Math.min(cut, trace.length);
        // Copies, as read back from the store.
        const checkpoint = { records: trace.slice(0, at).map((r) => ({ ...r })), rounds: [] };
        const current = { records: trace, rounds: [] };
        const later = trace.slice(at).filter((r) => r.type === "gate" && r.resolved_by === "human");
        expect(humanDecisionsUndone(current, checkpoint)).toEqual(later);
        expect(humanDecisionsUndone(current, current)).toEqual([]);
      }),
    );
  });
});
