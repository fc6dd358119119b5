// The engine's read-only gate context (stratum_gate_ask's source) and the resolution refused when
// the flow changed since the person was asked (expected_revision).
import { describe, expect, it } from "vitest";
import { harness, plain, planOk, result, stored } from "./api-fixtures";

const SPEC = `version: "0.2"
functions:
  approval:
    mode: gate
    intent: "Approve the release"
flows:
  main:
    input: {}
    max_rounds: 1
    steps:
      - id: a
        intent: "A"
      - id: b
        intent: "B"
      - id: g
        function: approval
        depends_on: [a]
        on_approve: ~
        on_revise: a
        on_kill: cleanup
      - id: cleanup
        intent: "Clean up"
`;

/** A flow of SPEC at its gate `g`; returns the api and the flow id. */
async function atGate() {
  const h = harness();
  const id = String((await planOk(h.api, SPEC)).flow_id);
  await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"v": 1}') });
  expect(
    plain(await h.api.stepDone({ flow_id: id, step_id: "b", result: result('{"w": 2}') })),
  ).toMatchObject({
    status: "await_gate",
  });
  return { h, id };
}

describe("gateContext", () => {
  it("gives the gate, its routes, the outcomes allowed now and the results it depends on, changing nothing", async () => {
    const { h, id } = await atGate();
    const before = await stored(h.store, id);
    const context = await h.api.gateContext?.({ flow_id: id, step_id: "g" });
    expect(plain(context ?? {})).toEqual({
      status: "gate_context",
      flow_id: id,
      flow_name: "main",
      step_id: "g",
      function: "approval",
      intent: "Approve the release",
      on_approve: null,
      on_revise: "a",
      on_kill: "cleanup",
      round: 0,
      max_rounds: 1,
      revision: before.revision,
      allowed_outcomes: ["approve", "revise", "kill"],
      reviewed: [{ step_id: "a", output: { v: 1 } }],
    });
    expect((await stored(h.store, id)).revision).toBe(before.revision);
  });

  it("drops revise once the rounds are used up", async () => {
    const { h, id } = await atGate();
    const revise = { flow_id: id, step_id: "g", outcome: "revise", rationale: "", resolved_by: "agent" };
    expect(plain(await h.api.gateResolve(revise))).toMatchObject({ status: "execute_step", step_id: "a" });
    await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"v": 3}') });
    await h.api.stepDone({ flow_id: id, step_id: "b", result: result('{"w": 4}') });
    const context = plain((await h.api.gateContext?.({ flow_id: id, step_id: "g" })) ?? {});
    expect(context).toMatchObject({ round: 1, allowed_outcomes: ["approve", "kill"] });
    expect(context).toMatchObject({ reviewed: [{ step_id: "a", output: { v: 3 } }] });
  });

  it("answers stratum_gate_resolve's refusals for a flow not at that gate", async () => {
    const { h, id } = await atGate();
    const ask = (flowId: string, stepId: string) => h.api.gateContext?.({ flow_id: flowId, step_id: stepId });
    expect(plain((await ask("nope", "g")) ?? {})).toMatchObject({ error_type: "flow_not_found" });
    expect(plain((await ask(id, "b")) ?? {})).toEqual({
      status: "error",
      error_type: "wrong_step",
      message: "Expected gate step 'g', got 'b'",
    });
    const fresh = String((await planOk(h.api, SPEC)).flow_id);
    expect(plain((await ask(fresh, "a")) ?? {})).toEqual({
      status: "error",
      error_type: "not_a_gate_step",
      message: "Step 'a' is not a gate step",
    });
    await h.api.gateResolve({
      flow_id: id,
      step_id: "g",
      outcome: "approve",
      rationale: "",
      resolved_by: "human",
    });
    expect(plain((await ask(id, "g")) ?? {})).toMatchObject({ error_type: "flow_already_complete" });
  });

  it("without depends_on, reviews the nearest earlier step with an output", async () => {
    const h = harness();
    const spec = SPEC.replace("        depends_on: [a]\n", "");
    const id = String((await planOk(h.api, spec)).flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"v": 1}') });
    await h.api.skipStep({ flow_id: id, step_id: "b", reason: "" });
    const context = plain((await h.api.gateContext?.({ flow_id: id, step_id: "g" })) ?? {});
    expect(context).toMatchObject({ reviewed: [{ step_id: "a", output: { v: 1 } }] });
  });
});

describe("gateResolve with expected_revision", () => {
  it("resolves at that revision and refuses (gate_changed, nothing written) at another", async () => {
    const { h, id } = await atGate();
    const { revision } = await stored(h.store, id);
    const args = { flow_id: id, step_id: "g", outcome: "approve", rationale: "", resolved_by: "human" };
    expect(plain(await h.api.gateResolve({ ...args, expected_revision: revision - 1 }))).toEqual({
      status: "error",
      error_type: "gate_changed",
      message: `The flow changed while the gate was being answered (revision ${revision - 1}, now ${revision}): ask again`,
    });
    expect((await stored(h.store, id)).revision).toBe(revision);
    expect(plain(await h.api.gateResolve({ ...args, expected_revision: revision }))).toMatchObject({
      status: "complete",
    });
  });
});
