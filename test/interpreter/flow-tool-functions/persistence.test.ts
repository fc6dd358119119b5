// What the A2 tools store survives the flow file (docs/reference/runtime.md §14.1): iteration history with float
// timestamps, accumulators (also items built from namespaces), the active loop, checkpoints and
// archived rounds encode and decode to a state whose audit and file text are unchanged.
import { describe, expect, it } from "vitest";
import { auditOf } from "../../../interpreter/flow/audit";
import { commitCheckpoint } from "../../../interpreter/flow/checkpoints";
import { gateResolve } from "../../../interpreter/flow/gates";
import { iterationReport, iterationStart } from "../../../interpreter/flow/iterations";
import type { FlowRun } from "../../../interpreter/flow/run";
import { stepDone } from "../../../interpreter/flow/step-done";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { encodeWire } from "../../../interpreter/wire/encode";
import { data, FLOW_ID, world } from "./support";

const SPEC = `version: "0.2"
functions:
  g: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: hunt
        intent: "Hunt"
        max_iterations: 5
        accumulate: "[result] + result.xs"
      - id: review
        function: g
        on_approve: ~
        on_revise: hunt
        on_kill: ~
      - id: more
        intent: "More"
        max_iterations: 3
`;

function roundTrip(run: FlowRun): FlowRun {
  const decoded = decodeFlowState(encodeFlowState(run.state));
  if (!decoded.ok) throw new Error(decoded.reason);
  return { ...run, state: decoded.state };
}

describe("A2 state in the flow file", () => {
  it("round-trips iteration history, accumulators, active loops, checkpoints and rounds", () => {
    const { tx, run, clock } = world(SPEC);
    iterationStart(tx, { flow_id: FLOW_ID, step_id: "hunt" });
    clock.advance(123);
    iterationReport(tx, { flow_id: FLOW_ID, step_id: "hunt", result: data({ xs: [1, 2.0, "é"] }) });
    commitCheckpoint(tx, { flow_id: FLOW_ID, label: "mid" });
    stepDone(tx, { flow_id: FLOW_ID, step_id: "hunt", result: data({ done: true }) });
    gateResolve(tx, {
      flow_id: FLOW_ID,
      step_id: "review",
      outcome: "revise",
      rationale: "r",
      resolved_by: "agent",
    });
    iterationStart(tx, { flow_id: FLOW_ID, step_id: "hunt" });
    iterationReport(tx, { flow_id: FLOW_ID, step_id: "hunt", result: data({ xs: [] }) });

    const text = encodeFlowState(run.state);
    const restored = roundTrip(run);
    expect(encodeFlowState(restored.state)).toBe(text);
    expect(encodeWire(auditOf(restored, clock))).toBe(encodeWire(auditOf(run, clock)));
    expect(text).toContain('"timestamp": 1.123');
    expect(restored.state.active_iteration).toEqual(run.state.active_iteration);
    expect(restored.state.iteration_accumulator).toEqual(run.state.iteration_accumulator);
  });
});
