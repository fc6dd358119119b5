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

describe("the property state kept for the loop watch", () => {
  it("is the state when it was taken, whatever happens after", () => {
    const state = stateOf();
    state.apply(e("step_dispatched", { step_id: "a", attempt: 1, round: 0 }));
    const before = state.at();
    const key = before.key(true);
    const words = before.describe();
    expect(words).toBe("'a' running, attempt 1");
    state.apply(accepted({ n: 1 }));
    state.apply(e("gate_resolved", { step_id: "g", outcome: "revise", round: 0 }));
    state.apply(e("step_routed", { from_step_id: "g", to_step_id: "a", route: "on_revise" }));
    state.apply(e("step_dispatched", { step_id: "a", attempt: 1, round: 1 }));
    expect(before.key(true)).toBe(key);
    expect(before.describe()).toBe(words);
    expect(before.currentRound).toBe(0);
    // The same steps and gates in a later round: equal without the round, different with it.
    const after = state.at();
    expect(after.currentRound).toBe(1);
    expect(after.key(true)).not.toBe(key);
  });

  it("reads the same step values as the snapshot after a step's view is reused", () => {
    const state = stateOf();
    state.apply(accepted({ n: 2 }));
    const first = wireToPlain(state.snapshot());
    state.apply(e("gate_awaited", { step_id: "g", round: 0 }));
    const second = wireToPlain(state.snapshot()) as { steps: { a: unknown; g: unknown } };
    expect(second.steps.a).toEqual((first as { steps: { a: unknown } }).steps.a);
    expect(second.steps.g).toEqual({ status: "running", attempts: 0, output: null });
  });
});
