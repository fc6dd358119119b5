// stratum_skip_step (docs/reference/runtime.md §7) and stratum_resume (docs/reference/runtime.md §13).
import { describe, expect, it } from "vitest";
import { harness, plain, planOk, result, stored } from "./api-fixtures";

const SPEC = `version: "0.2"
functions:
  approval: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: g
        function: approval
        on_approve: ~
        on_revise: a
        on_kill: cleanup
      - id: cleanup
        intent: "Clean up"
`;

describe("skip_step", () => {
  it("stores null, records the reason, keeps attempts and dispatches the next step", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    const r = await h.api.skipStep({ flow_id: id, step_id: "a", reason: "not needed" });
    expect(plain(r)).toMatchObject({ status: "await_gate", step_id: "g" });
    const state = await stored(h.store, id);
    expect(state.step_outputs.get("a")).toBeNull();
    expect(state.records).toEqual([
      { step_id: "a", skip_reason: "not needed", type: "skip", round: 0, round_start_step_id: null },
    ]);
    expect(state.status).toBe("awaiting_gate");
  });

  it("rejects a wrong step, a gate and a finished flow with execution errors", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    expect(plain(await h.api.skipStep({ flow_id: id, step_id: "g", reason: "" }))).toMatchObject({
      success: false,
      message: "Expected step 'a', got 'g'",
    });
    await h.api.skipStep({ flow_id: id, step_id: "a", reason: "" });
    expect(plain(await h.api.skipStep({ flow_id: id, step_id: "g", reason: "" }))).toMatchObject({
      success: false,
      message: "Step 'g' is a gate step — use stratum_gate_resolve to resolve it",
    });
    await h.api.gateResolve({
      flow_id: id,
      step_id: "g",
      outcome: "approve",
      rationale: "",
      resolved_by: "agent",
    });
    expect(plain(await h.api.skipStep({ flow_id: id, step_id: "cleanup", reason: "" }))).toMatchObject({
      success: false,
      message: "Flow is already complete",
    });
  });
});

describe("resume", () => {
  it("dispatches the current step of a running flow", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const r = await h.restart().resume({ flow_id: String(plan.flow_id) });
    expect(plain(r)).toEqual(plain(plan));
  });

  it("answers the completion payload of a finished flow (DIV-RESUME-FINISHED)", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "a", result: result('{"v": 1}') });
    await h.api.gateResolve({
      flow_id: id,
      step_id: "g",
      outcome: "approve",
      rationale: "",
      resolved_by: "agent",
    });
    const r = await h.restart().resume({ flow_id: id });
    expect(plain(r)).toMatchObject({ status: "complete", flow_id: id, output: { v: 1 } });
    expect(Object.keys(r)).toEqual(["status", "flow_id", "output", "trace", "total_duration_ms"]);
  });

  it("answers killed for a flow with terminal_status, even while its on_kill steps run", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "a", result: result("{}") });
    const kill = await h.api.gateResolve({
      flow_id: id,
      step_id: "g",
      outcome: "kill",
      rationale: "no",
      resolved_by: "human",
    });
    expect(kill.step_id).toBe("cleanup");
    const r = await h.api.resume({ flow_id: id });
    expect(Object.keys(r)).toEqual(["status", "flow_id", "trace", "total_duration_ms"]);
    expect(r.status).toBe("killed");
  });
});
