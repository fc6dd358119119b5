// The observer waits for a flow's trace only when a dispatched step read a null `$.steps.X` input
// whose producer is not a gate (a gate's output is always null): any other input never shows a
// skipped producer.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/index";
import { readsNullProducer } from "../../../fuzzer/run/null-producer";

const SPEC = `version: "0.2"
functions:
  review:
    mode: gate
flows:
  main:
    input:
      topic: {type: string}
    steps:
      - id: a
        intent: "Do a"
        skip_if: "$.input.topic == 'x'"
      - id: g
        function: review
        on_approve: ~
        on_revise: a
        on_kill: ~
      - id: b
        intent: "Do b"
        inputs:
          fromA: "$.steps.a.output"
          fromGate: "$.steps.g.output"
          topic: "$.input.topic"
`;

describe("readsNullProducer", () => {
  const checked = checkSpec(SPEC);
  const flow = checked.ir?.flows.get("main");
  const b = flow?.stepById.get("b");

  it("is true only for a null input whose producer is a step, not a gate or the flow's input", () => {
    expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    if (flow === undefined || b === undefined) throw new Error("the spec has no step b");
    expect(readsNullProducer(flow, b, { fromA: null, fromGate: null, topic: "t" })).toBe(true);
    expect(readsNullProducer(flow, b, { fromA: { v: 1 }, fromGate: null, topic: "t" })).toBe(false);
    expect(readsNullProducer(flow, b, { fromA: { v: 1 }, fromGate: null, topic: null })).toBe(false);
    expect(readsNullProducer(flow, b, {})).toBe(false);
  });
});
