// The property state follows the interpreter's stored outputs: a step's output is the one its
// step_finished event carries; a `next` route back clears the steps from its target, as the
// interpreter clears them, while a gate's approve or kill route only moves the position (the
// target keeps its output and attempts, docs/reference/runtime.md §5); an event without the output
// (a server that does not send it) leaves the output unseen.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/index";
import { RunState } from "../../../fuzzer/run/property-state";
import type { FlowEvent } from "../../../interpreter/index";
import { wireToPlain } from "../../../interpreter/index";
import { fromJsonValue } from "../../../stdlib/index";

const SPEC = `version: "0.2"
functions:
  review:
    mode: gate
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "Do a"
      - id: g
        function: review
        on_approve: a
        on_revise: a
        on_kill: ~
`;

const e = (type: string, fields: Record<string, unknown>) =>
  ({ type, round: 0, ...fields }) as unknown as FlowEvent;

function stateOf(): RunState {
  const flow = checkSpec(SPEC).ir?.flows.get("main");
  if (flow === undefined) throw new Error("spec does not check");
  return new RunState(flow);
}

function stepA(state: RunState): unknown {
  return (wireToPlain(state.snapshot()) as { steps: { a: unknown } }).steps.a;
}

const accepted = (output?: unknown) =>
  e("step_finished", {
    step_id: "a",
    outcome: "accepted",
    attempt: 1,
    ...(output === undefined ? {} : { output: fromJsonValue(output) }),
  });

describe("the property state's step outputs", () => {
  it("are the event's output, kept by an approve route and cleared by a revise route", () => {
    const state = stateOf();
    state.apply(accepted({ n: 1 }));
    expect(stepA(state)).toEqual({ status: "done", attempts: 1, output: { n: 1 } });
    expect(state.outputUnseen("a")).toBe(false);
    state.apply(e("step_routed", { from_step_id: "g", to_step_id: "a", route: "on_approve" }));
    expect(stepA(state)).toEqual({ status: "done", attempts: 1, output: { n: 1 } });
    state.apply(e("step_routed", { from_step_id: "g", to_step_id: "a", route: "on_revise" }));
    expect(stepA(state)).toEqual({ status: "pending", attempts: 0, output: null });
  });

  it("are unseen only when the event does not carry one", () => {
    const state = stateOf();
    state.apply(accepted());
    expect(state.outputUnseen("a")).toBe(true);
    expect(stepA(state)).toMatchObject({ status: "done", output: null });
    state.apply(accepted({ n: 2 }));
    expect(state.outputUnseen("a")).toBe(false);
  });
});
