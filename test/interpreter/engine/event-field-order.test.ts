// The fields of every kind of event, in order: the MCP server hands a call's events to a client that
// asks for them as JSON (`_meta["stratumc/events"]`), so the order of their keys is part of what
// users read and diff. The engine builds each event as one literal, field by field (observe.ts),
// and this pins that order.
import { describe, expect, it } from "vitest";
import type { FlowEvent } from "../../../interpreter/engine/observer";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { parseJson } from "../../../stdlib/values/json";
import { makeObservedApi } from "../support/observed-api";

const BASE = ["time_ms", "flow_id", "flow_name", "root_flow_id"];

const KEYS: Partial<Record<FlowEvent["type"], readonly string[]>> = {
  flow_started: [...BASE, "type", "parent_flow_id", "parent_step_id"],
  step_dispatched: [...BASE, "step_id", "round", "seq", "type", "step_mode", "attempt", "child_flow_id"],
  step_finished: [
    ...BASE,
    "step_id",
    "round",
    "seq",
    "type",
    "step_mode",
    "attempt",
    "child_flow_id",
    "outcome",
    "failure",
    "violations",
    "reasons",
    "duration_ms",
    "dispatched_here",
  ],
  gate_awaited: [...BASE, "step_id", "round", "seq", "type"],
  gate_resolved: [
    ...BASE,
    "step_id",
    "round",
    "seq",
    "type",
    "outcome",
    "resolved_by",
    "rationale",
    "duration_ms",
    "dispatched_here",
  ],
  step_skipped: [...BASE, "step_id", "round", "seq", "type", "kind", "reason"],
  step_routed: [...BASE, "type", "from_step_id", "to_step_id", "route"],
  flow_finished: [
    ...BASE,
    "type",
    "parent_flow_id",
    "parent_step_id",
    "status",
    "duration_ms",
    "output_step_id",
  ],
};

const SPEC = `version: "0.2"
functions:
  review: {mode: gate}
contracts:
  Out:
    x: {type: integer}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "Produce x"
        output_contract: Out
        retries: 2
        ensure:
          - "result.x > 0"
        next: c
      - id: b
        intent: "Never reached"
      - id: c
        intent: "Skipped when x is large"
        skip_if: "$.steps.a.output.x > 5"
      - id: review
        function: review
        on_approve: null
        on_revise: a
        on_kill: null
`;

describe("the fields of each kind of event", () => {
  it("come in the documented order, the flow's fields first", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 0}') });
    await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 9}') });
    await h.api.gateResolve({
      flow_id: id,
      step_id: "review",
      outcome: "approve",
      rationale: "ok",
      resolved_by: "human",
    });
    const events = h.take();
    const seen = new Set<string>();
    for (const e of events) {
      const expected = KEYS[e.type];
      // step_finished of an output that was stored carries the output last.
      const keys = Object.keys(e).filter((k) => k !== "output");
      if (expected !== undefined) expect([e.type, keys]).toEqual([e.type, expected]);
      else expect(keys.slice(0, BASE.length)).toEqual(BASE);
      seen.add(e.type);
    }
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        "flow_finished",
        "flow_started",
        "gate_awaited",
        "gate_resolved",
        "step_dispatched",
        "step_finished",
        "step_routed",
        "step_skipped",
      ]),
    );
  });
});
