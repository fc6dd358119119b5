// stratum_gate_resolve (docs/reference/runtime.md §6.1, docs/reference/runtime.md §6.2): the refusals in order, the GateRecord and its
// duration, approve / revise / kill with null and named routes, rounds and max_rounds.
import { describe, expect, it } from "vitest";
import { gateResolve } from "../../../interpreter/flow/gates";
import { stepDone } from "../../../interpreter/flow/step-done";
import { data, FLOW_ID, keysOf, plain, type TestTx, world } from "./support";

const GATE_ERRORS = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
  approval:
    mode: gate
flows:
  main:
    input: {}
    steps:
      - id: w
        function: work
        inputs: {}
      - id: g1
        function: approval
        on_approve: ~
        on_revise: w
        on_kill: ~
`;

const NAMED = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
  approval:
    mode: gate
flows:
  main:
    input: {}
    max_rounds: 2
    steps:
      - id: work
        function: work
        inputs: {}
      - id: review
        function: approval
        on_approve: publish
        on_revise: work
        on_kill: cleanup
      - id: publish
        intent: "Publish"
        output_contract: Out
      - id: cleanup
        intent: "Clean up"
        skip_if: "$.steps.publish.output != None"
`;

function done(tx: TestTx, stepId: string, result: unknown) {
  return stepDone(tx, { flow_id: FLOW_ID, step_id: stepId, result: data(result) });
}
function resolve(tx: TestTx, stepId: string, outcome: string, rationale = "", resolvedBy = "human") {
  return gateResolve(tx, { flow_id: FLOW_ID, step_id: stepId, outcome, rationale, resolved_by: resolvedBy });
}
const toolError = (error_type: string, message: string) => ({ status: "error", error_type, message });

const W_RECORD = {
  step_id: "w",
  function_name: "work",
  attempts: 1,
  duration_ms: 0,
  type: "step",
  round: 0,
  round_start_step_id: null,
  agent: null,
  step_mode: "function",
  child_flow_id: null,
  cache_hit: false,
  cache_key: null,
};

describe("gate_resolve refusals", () => {
  it("replays gate_errors: every check in order, then approve completes, then flow_already_complete", () => {
    const { tx, run } = world(GATE_ERRORS);
    expect(plain(resolve(tx, "g1", "approve"))).toEqual(
      toolError("not_a_gate_step", "Step 'w' is not a gate step"),
    );
    expect(plain(done(tx, "w", { v: "x" }))).toMatchObject({ status: "await_gate", step_id: "g1" });
    tx.edited.clear();
    // outcome is checked before resolved_by, and both before the step id.
    expect(plain(resolve(tx, "g2", "maybe", "", "robot"))).toEqual(
      toolError("invalid_outcome", "outcome must be one of ['approve', 'kill', 'revise'], got 'maybe'"),
    );
    expect(plain(resolve(tx, "g2", "approve", "ok", "robot"))).toEqual(
      toolError(
        "invalid_resolved_by",
        "resolved_by must be one of ['agent', 'human', 'system'], got 'robot'",
      ),
    );
    expect(plain(resolve(tx, "g2", "approve"))).toEqual(
      toolError("wrong_step", "Expected gate step 'g1', got 'g2'"),
    );
    expect(tx.edited.size).toBe(0);
    expect(run.state.records).toHaveLength(1);
    const complete = resolve(tx, "g1", "approve", "ok", "human");
    expect(keysOf(complete)).toEqual(["status", "flow_id", "output", "trace", "total_duration_ms"]);
    expect(plain(complete)).toEqual({
      status: "complete",
      flow_id: FLOW_ID,
      output: { v: "x" },
      trace: [
        W_RECORD,
        {
          step_id: "g1",
          outcome: "approve",
          rationale: "ok",
          resolved_by: "human",
          duration_ms: 0,
          type: "gate",
          round: 0,
          round_start_step_id: null,
        },
      ],
      total_duration_ms: 0,
    });
    expect(Object.keys(run.state.records[1] ?? {})).toEqual([
      "step_id",
      "outcome",
      "rationale",
      "resolved_by",
      "duration_ms",
      "type",
      "round",
      "round_start_step_id",
    ]);
    expect(plain(resolve(tx, "g1", "approve"))).toEqual(
      toolError("flow_already_complete", "Flow is already complete"),
    );
  });

  it("quotes outcomes like Python repr", () => {
    const { tx } = world(GATE_ERRORS);
    done(tx, "w", { v: "x" });
    expect(plain(resolve(tx, "g1", "it's"))).toMatchObject({
      message: `outcome must be one of ['approve', 'kill', 'revise'], got "it's"`,
    });
  });

  it("answers flow_not_found for an unknown flow", () => {
    const { tx } = world(GATE_ERRORS);
    expect(
      plain(
        gateResolve(tx, {
          flow_id: "x",
          step_id: "g1",
          outcome: "approve",
          rationale: "",
          resolved_by: "human",
        }),
      ),
    ).toEqual(toolError("flow_not_found", "No active flow with id 'x'"));
  });
});

describe("gate_resolve outcomes", () => {
  it("measures duration_ms on the wall clock since the gate's dispatch, 0 when unknown", () => {
    const { tx, run, clock } = world(GATE_ERRORS);
    done(tx, "w", { v: "x" });
    clock.advanceWall(1234.9);
    resolve(tx, "g1", "approve");
    expect(run.state.records[1]).toMatchObject({ type: "gate", duration_ms: 1234 });

    const other = world(GATE_ERRORS);
    done(other.tx, "w", { v: "x" });
    other.run.timing.gateDispatchedAt.clear(); // as after a restart
    other.clock.advance(5000);
    resolve(other.tx, "g1", "approve");
    expect(other.run.state.records[1]).toMatchObject({ duration_ms: 0 });
  });

  it("approve with a named on_approve moves there without clearing; the flow runs on", () => {
    const { tx, run } = world(NAMED);
    done(tx, "work", { v: "w" });
    run.state.step_outputs.set("publish", data({ v: "old" }));
    run.state.attempts.set("publish", 1);
    const payload = resolve(tx, "review", "approve", "ship it");
    expect(plain(payload)).toMatchObject({ status: "execute_step", step_id: "publish", step_number: 3 });
    expect(run.state.attempts.get("publish")).toBe(1);
    expect(plain(run.state.step_outputs.get("publish") ?? null)).toEqual({ v: "old" });
    expect(plain(done(tx, "publish", { v: "p" }))).toMatchObject({ status: "complete", output: { v: "p" } });
  });

  it("kill with null on_kill: killed payload without output, terminal status, finished", () => {
    const { tx, run } = world(GATE_ERRORS);
    done(tx, "w", { v: "x" });
    const killed = resolve(tx, "g1", "kill", "wrong direction", "system");
    expect(keysOf(killed)).toEqual(["status", "flow_id", "trace", "total_duration_ms"]);
    expect(plain(killed)).toMatchObject({
      status: "killed",
      trace: [
        W_RECORD,
        { step_id: "g1", outcome: "kill", rationale: "wrong direction", resolved_by: "system" },
      ],
    });
    expect(run.state.terminal_status).toBe("killed");
    expect(run.state.current_idx).toBe(2);
  });

  it("kill with a named on_kill sets the terminal status and dispatches the cleanup step", () => {
    const { tx, run } = world(NAMED);
    done(tx, "work", { v: "w" });
    expect(plain(resolve(tx, "review", "kill", "no"))).toMatchObject({
      status: "execute_step",
      step_id: "cleanup",
    });
    expect(run.state.terminal_status).toBe("killed");
    expect(plain(done(tx, "cleanup", { ok: true }))).toMatchObject({
      status: "killed",
      output: { ok: true },
    });
  });

  it("revise archives the round, clears from on_revise and increments the round", () => {
    const { tx, run } = world(NAMED);
    done(tx, "work", { v: "w" });
    run.state.iterations.set("work", [{ iteration: 1 }]);
    const payload = resolve(tx, "review", "revise", "more");
    expect(plain(payload)).toMatchObject({ status: "execute_step", step_id: "work", retries_remaining: 3 });
    expect(run.state.round).toBe(1);
    expect(run.state.round_start_step_id).toBe("work");
    expect(run.state.records).toEqual([]);
    expect(run.state.rounds).toHaveLength(1);
    expect(run.state.rounds[0]?.map((r) => r.type)).toEqual(["step", "gate"]);
    expect(run.state.rounds[0]?.[1]).toMatchObject({
      outcome: "revise",
      round: 0,
      round_start_step_id: null,
    });
    expect(run.state.archived_iterations).toHaveLength(1);
    expect(run.state.archived_iterations[0]?.get("work")).toEqual([{ iteration: 1 }]);
    expect(run.state.iterations.size).toBe(0);
    expect(run.state.step_outputs.has("work")).toBe(false);
    expect(run.state.attempts.has("work")).toBe(false);
    done(tx, "work", { v: "w2" });
    expect(run.state.records[0]).toMatchObject({ round: 1, round_start_step_id: "work", attempts: 1 });
  });

  it("max_rounds: N allows exactly N revises; the refusal keeps its GateRecord and the gate pending", () => {
    const { tx, run } = world(NAMED);
    for (let i = 0; i < 2; i++) {
      done(tx, "work", { v: `w${i}` });
      expect(plain(resolve(tx, "review", "revise"))).toMatchObject({
        status: "execute_step",
        step_id: "work",
      });
    }
    done(tx, "work", { v: "w2" });
    const refused = resolve(tx, "review", "revise", "again");
    expect(keysOf(refused)).toEqual(["status", "error_type", "message", "round"]);
    expect(plain(refused)).toEqual({
      status: "error",
      error_type: "max_rounds_exceeded",
      message: "Maximum rounds (2) exceeded",
      round: 2,
    });
    expect(tx.edited.has(FLOW_ID)).toBe(true);
    expect(run.state.records.map((r) => r.type)).toEqual(["step", "gate"]);
    expect(run.state.records[1]).toMatchObject({ outcome: "revise", rationale: "again", round: 2 });
    expect(run.state.round).toBe(2);
    expect(run.flow.steps[run.state.current_idx]?.id).toBe("review");
    expect(plain(resolve(tx, "review", "approve"))).toMatchObject({
      status: "execute_step",
      step_id: "publish",
    });
  });

  it("answers the completion when a named route ends in skipped steps", () => {
    const spec = NAMED.replace('skip_if: "$.steps.publish.output != None"', 'skip_if: "True"');
    const { tx } = world(spec);
    done(tx, "work", { v: "w" });
    expect(plain(resolve(tx, "review", "kill"))).toMatchObject({ status: "killed", output: { v: "w" } });
  });
});
