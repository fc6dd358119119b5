// The events of a call put back in the order of its transitions for the property state: a route
// comes right after the record of the step or gate it leaves, before what the call recorded after
// it (the step the cache served at a revise's target); a route no record matches keeps its place.
import { describe, expect, it } from "vitest";
import { inTransitionOrder } from "../../../fuzzer/run/transition-order";
import type { FlowEvent } from "../../../interpreter/index";

const e = (type: string, fields: Record<string, unknown>) => ({ type, ...fields }) as unknown as FlowEvent;
const label = (x: FlowEvent) =>
  x.type === "step_routed"
    ? `route ${x.from_step_id}->${x.to_step_id}`
    : `${x.type} ${"step_id" in x ? x.step_id : ""}`;

describe("the transition order of a call's events", () => {
  it("moves a revise's route before the cached step recorded in the new round", () => {
    const events = [
      e("gate_resolved", { step_id: "check", outcome: "revise" }),
      e("step_finished", { step_id: "sum", outcome: "accepted" }),
      e("step_routed", { from_step_id: "check", to_step_id: "sum", route: "on_revise" }),
      e("gate_awaited", { step_id: "check" }),
    ];
    expect(inTransitionOrder(events).map(label)).toEqual([
      "gate_resolved check",
      "route check->sum",
      "step_finished sum",
      "gate_awaited check",
    ]);
  });

  it("keeps the order of several routes, each after its own record", () => {
    const events = [
      e("step_finished", { step_id: "a", outcome: "accepted" }),
      e("step_finished", { step_id: "b", outcome: "accepted" }),
      e("step_routed", { from_step_id: "a", to_step_id: "b", route: "next" }),
      e("step_routed", { from_step_id: "b", to_step_id: "d", route: "next" }),
      e("step_dispatched", { step_id: "d" }),
    ];
    expect(inTransitionOrder(events).map(label)).toEqual([
      "step_finished a",
      "route a->b",
      "step_finished b",
      "route b->d",
      "step_dispatched d",
    ]);
  });

  it("leaves a route no record matches where it was, and a call without routes as it is", () => {
    const events = [
      e("step_finished", { step_id: "a", outcome: "accepted" }),
      e("step_routed", { from_step_id: "x", to_step_id: "a", route: "next" }),
      e("step_dispatched", { step_id: "a" }),
    ];
    expect(inTransitionOrder(events).map(label)).toEqual([
      "step_finished a",
      "route x->a",
      "step_dispatched a",
    ]);
    const plain = [e("flow_started", {}), e("step_dispatched", { step_id: "a" })];
    expect(inTransitionOrder(plain)).toBe(plain);
  });
});
