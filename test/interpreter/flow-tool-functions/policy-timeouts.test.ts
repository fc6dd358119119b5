// The policy loop (docs/reference/runtime.md §6.4) and stratum_check_timeouts (docs/reference/runtime.md §6.3).
import { describe, expect, it } from "vitest";
import { dispatch } from "../../../interpreter/flow/dispatch";
import { gateResolve } from "../../../interpreter/flow/gates";
import { policyLoop } from "../../../interpreter/flow/policy";
import { skipStep } from "../../../interpreter/flow/skip";
import { stepDone } from "../../../interpreter/flow/step-done";
import { checkTimeouts } from "../../../interpreter/flow/timeouts";
import { PyFloat } from "../../../stdlib/values/value";
import { data, FLOW_ID, keysOf, plain, type TestTx, world } from "./support";

const CHAIN = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
  g:
    mode: gate
flows:
  main:
    input: {}
    output: Out
    steps:
      - id: w
        function: work
        inputs: {}
      - id: g1
        function: g
        policy: flag
        on_approve: g2
        on_revise: w
        on_kill: ~
      - id: g2
        function: g
        policy: skip
        policy_fallback: gate
        on_approve: w2
        on_revise: w
        on_kill: ~
      - id: w2
        function: work
        inputs: {}
      - id: g3
        function: g
        policy: skip
        on_approve: ~
        on_revise: w2
        on_kill: ~
`;

function done(tx: TestTx, stepId: string, result: unknown) {
  return stepDone(tx, { flow_id: FLOW_ID, step_id: stepId, result: data(result) });
}
const policy = (step_id: string, effective_policy: string) => ({
  step_id,
  effective_policy,
  resolved_outcome: "approve",
  rationale: `policy: ${effective_policy} — auto-approved`,
  type: "policy",
  round: 0,
  round_start_step_id: null,
});

describe("policy loop", () => {
  it("replays policy_flag_skip_chain: flag and skip gates auto-approve along on_approve", () => {
    const { tx, run } = world(CHAIN);
    expect(plain(done(tx, "w", { v: "a" }))).toMatchObject({
      status: "execute_step",
      step_id: "w2",
      step_number: 4,
    });
    expect(run.state.records.slice(1).map((r) => plain({ ...r }))).toEqual([
      policy("g1", "flag"),
      policy("g2", "skip"),
    ]);
    expect(Object.keys(run.state.records[1] ?? {})).toEqual([
      "step_id",
      "effective_policy",
      "resolved_outcome",
      "rationale",
      "type",
      "round",
      "round_start_step_id",
    ]);
    const complete = skipStep(tx, { flow_id: FLOW_ID, step_id: "w2", reason: "meh" });
    expect(plain(complete)).toMatchObject({ status: "complete", output: { v: "a" } });
    expect(run.state.records.map((r) => r.type)).toEqual(["step", "policy", "policy", "skip", "policy"]);
  });

  it("answers a literal 'complete' when a policy finishes a killed flow", () => {
    const { tx, run } = world(CHAIN);
    run.state.terminal_status = "killed";
    run.state.current_idx = 4;
    const payload = dispatch(tx, run);
    expect(plain(policyLoop(tx, run, payload ?? {}))).toMatchObject({ status: "complete" });
  });

  it("leaves gates with policy gate (the default) and non-gate payloads alone", () => {
    const spec = CHAIN.replace("        policy: flag\n", "");
    const { tx, run } = world(spec);
    expect(plain(done(tx, "w", { v: "a" }))).toMatchObject({ status: "await_gate", step_id: "g1" });
    expect(run.state.records).toHaveLength(1);
    const payload = { status: "execute_step", step_id: "g2" };
    expect(policyLoop(tx, run, payload)).toBe(payload);
  });

  it("stops at a gate seen before in the same loop (a routing cycle)", () => {
    const spec = `version: "0.2"
functions:
  g: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: g1
        function: g
        policy: skip
        on_approve: g2
        on_revise: a
        on_kill: ~
      - id: g2
        function: g
        policy: flag
        on_approve: g1
        on_revise: a
        on_kill: ~
`;
    const { tx, run } = world(spec);
    expect(plain(done(tx, "a", { x: 1 }))).toMatchObject({ status: "await_gate", step_id: "g1" });
    expect(run.state.records.map((r) => [r.type, r.step_id])).toEqual([
      ["step", "a"],
      ["policy", "g1"],
      ["policy", "g2"],
    ]);
    // Resolved by hand: a new loop auto-approves g2 and g1, then stops when g2 comes round again.
    const again = gateResolve(tx, {
      flow_id: FLOW_ID,
      step_id: "g1",
      outcome: "approve",
      rationale: "",
      resolved_by: "agent",
    });
    expect(plain(again)).toMatchObject({ status: "await_gate", step_id: "g2" });
    expect(run.state.records.slice(3).map((r) => [r.type, r.step_id])).toEqual([
      ["gate", "g1"],
      ["policy", "g2"],
      ["policy", "g1"],
    ]);
  });
});

const TIMED = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
  plain_gate:
    mode: gate
  timed_gate:
    mode: gate
    timeout: 60
flows:
  main:
    input: {}
    steps:
      - id: w
        function: work
        inputs: {}
      - id: g1
        function: plain_gate
        on_approve: g2
        on_revise: w
        on_kill: ~
      - id: g2
        function: timed_gate
        on_approve: ~
        on_revise: w
        on_kill: KILL_TARGET
      - id: after
        intent: "After"
`;

describe("check_timeouts", () => {
  const check = (tx: TestTx) => checkTimeouts(tx, { flow_id: FLOW_ID });

  function atTimedGate(onKill = "~") {
    const w = world(TIMED.replace("KILL_TARGET", onKill));
    done(w.tx, "w", { v: "x" });
    gateResolve(w.tx, {
      flow_id: FLOW_ID,
      step_id: "g1",
      outcome: "approve",
      rationale: "ok",
      resolved_by: "human",
    });
    return w;
  }

  it("replays check_timeouts_variants", () => {
    const { tx, clock, run } = world(TIMED.replace("KILL_TARGET", "~"));
    expect(plain(check(tx))).toEqual({ status: "no_timeout", message: "Current step is not a gate step" });
    done(tx, "w", { v: "x" });
    expect(plain(check(tx))).toEqual({ status: "no_timeout", message: "Gate has no timeout configured" });
    gateResolve(tx, {
      flow_id: FLOW_ID,
      step_id: "g1",
      outcome: "approve",
      rationale: "ok",
      resolved_by: "human",
    });
    clock.advanceWall(15_500);
    const remaining = check(tx);
    expect(keysOf(remaining)).toEqual(["status", "remaining_seconds"]);
    expect(remaining.remaining_seconds).toEqual(new PyFloat(44.5));
    expect(tx.edited.size).toBeGreaterThan(0);
    clock.advanceWall(120_000);
    const killed = check(tx);
    expect(keysOf(killed)).toEqual(["status", "flow_id", "reason", "trace", "total_duration_ms"]);
    expect(plain(killed)).toMatchObject({ status: "killed", flow_id: FLOW_ID, reason: "timeout" });
    expect(run.state.records[2]).toEqual({
      step_id: "g2",
      outcome: "kill",
      rationale: "timeout",
      resolved_by: "system",
      duration_ms: 135_500,
      type: "gate",
      round: 0,
      round_start_step_id: null,
    });
    expect(plain(check(tx))).toEqual({ status: "no_timeout", message: "Flow is already complete" });
  });

  it("a remaining time that is a whole number is still a float", () => {
    const { tx } = atTimedGate();
    expect(check(tx).remaining_seconds).toEqual(new PyFloat(60));
  });

  it("kills at exactly the timeout", () => {
    const { tx, clock } = atTimedGate();
    clock.advanceWall(60_000);
    expect(plain(check(tx))).toMatchObject({ status: "killed" });
  });

  it("answers 'Gate not yet dispatched' when the dispatch time is unknown (after a restart)", () => {
    const { tx, run, clock } = atTimedGate();
    run.timing.gateDispatchedAt.clear();
    clock.advanceWall(1_000_000);
    expect(plain(check(tx))).toEqual({ status: "no_timeout", message: "Gate not yet dispatched" });
  });

  it("with a named on_kill: kills, then dispatches the target (with the policy loop)", () => {
    const { tx, run, clock } = atTimedGate("after");
    clock.advanceWall(61_000);
    expect(plain(check(tx))).toMatchObject({ status: "execute_step", step_id: "after" });
    expect(run.state.terminal_status).toBe("killed");
  });

  it("answers flow_not_found for an unknown flow", () => {
    const { tx } = world(TIMED.replace("KILL_TARGET", "~"));
    expect(plain(checkTimeouts(tx, { flow_id: "nope" }))).toMatchObject({ error_type: "flow_not_found" });
  });
});
