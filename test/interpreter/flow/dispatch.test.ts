// Dispatch (docs/reference/runtime.md §3.1–3.2): skip_if on steps and gates, the warning of a failing skip_if,
// dispatch times, and the exact payload of each step kind (keys in order).
import { describe, expect, it } from "vitest";
import { dispatch, dispatchOrComplete } from "../../../interpreter/flow/dispatch";
import { ManualClock } from "../support/manual-clock";
import { json, runOf, text, txOf } from "./fixtures";

const SPEC = `version: "0.2"
contracts:
  DraftOut:
    text: {type: string}
    quality_score: {type: number}
functions:
  write_draft:
    mode: infer
    intent: "Write the first draft"
    input: {text: {type: string}}
    output: DraftOut
    ensure: ["result.quality_score >= 0.8"]
    model: big
  approval:
    mode: gate
    timeout: 3600
flows:
  main:
    input: {text: {type: string}, fast: {type: boolean}}
    steps:
      - id: prep
        intent: "Prepare"
        skip_if: "$.input.fast"
      - id: draft
        function: write_draft
        inputs: {text: "$.input.text"}
      - id: review
        function: approval
        on_approve: ~
        on_revise: draft
        on_kill: ~
      - id: fix
        intent: "Fix it"
        inputs: {prior: "$.steps.draft.output.text"}
        output_contract: DraftOut
        model: small
        skip_if: "$.steps.draft.output.text.upper() == 'OK'"
        skip_reason: "already fine"
`;

describe("dispatch", () => {
  it("skips a step whose skip_if holds: null output, SkipRecord with the default reason", () => {
    const run = runOf(SPEC, "main", '{"text": "hi", "fast": true}');
    const payload = dispatch(txOf(run), run);
    expect(payload?.step_id).toBe("draft");
    expect(run.state.step_outputs.get("prep")).toBeNull();
    expect(text(run.state.records as never)).toBe(
      '[{"step_id": "prep", "skip_reason": "skip_if: $.input.fast", "type": "skip", "round": 0, "round_start_step_id": null}]',
    );
  });

  it("produces the function payload in the documented key order and stamps the monotonic dispatch time", () => {
    const run = runOf(SPEC, "main", '{"text": "hi", "fast": true}');
    const clock = new ManualClock(5_000, 777);
    const payload = dispatch(txOf(run, clock), run);
    expect(text(payload!)).toBe(
      '{"status": "execute_step", "flow_id": "flow-1", "step_number": 2, "total_steps": 4, "step_id": "draft", ' +
        '"step_mode": "function", "function": "write_draft", "agent": null, "mode": "infer", ' +
        '"intent": "Write the first draft", "inputs": {"text": "hi"}, "output_contract": "DraftOut", ' +
        '"output_fields": {"text": "string", "quality_score": "number"}, ' +
        '"ensure": ["result.quality_score >= 0.8"], "retries_remaining": 3}',
    );
    expect(run.timing.stepDispatchedAt.get("draft")).toBe(777);
  });

  it("produces the gate payload and stamps the wall-clock dispatch time", () => {
    const run = runOf(SPEC, "main", '{"text": "hi", "fast": true}');
    run.state.current_idx = 2;
    const clock = new ManualClock(5_000, 777);
    expect(text(dispatch(txOf(run, clock), run)!)).toBe(
      '{"status": "await_gate", "flow_id": "flow-1", "step_number": 3, "total_steps": 4, "step_id": "review", ' +
        '"step_mode": "function", "function": "approval", "agent": null, "on_approve": null, ' +
        '"on_revise": "draft", "on_kill": null, "timeout": 3600}',
    );
    expect(run.timing.gateDispatchedAt.get("review")).toBe(5_000);
  });

  it("produces the inline payload with the step's contract fields and model", () => {
    const run = runOf(SPEC, "main", '{"text": "hi", "fast": true}');
    run.state.current_idx = 3;
    run.state.step_outputs.set("draft", null);
    run.state.attempts.set("fix", 0);
    expect(text(dispatch(txOf(run), run)!)).toBe(
      '{"status": "execute_step", "flow_id": "flow-1", "step_number": 4, "total_steps": 4, "step_id": "fix", ' +
        '"step_mode": "inline", "intent": "Fix it", "agent": null, "inputs": {"prior": null}, ' +
        '"output_contract": "DraftOut", "output_fields": {"text": "string", "quality_score": "number"}, ' +
        '"ensure": [], "retries_remaining": 1, "model": "small"}',
    );
  });

  it("a skip_if that raises means 'do not skip' and leaves a warning", () => {
    const run = runOf(SPEC, "main", '{"text": "hi", "fast": true}');
    run.state.current_idx = 3;
    run.state.step_outputs.set("draft", null); // None.upper() raises
    const tx = txOf(run);
    expect(dispatch(tx, run)?.step_id).toBe("fix");
    expect(tx.warnings).toEqual([
      "skip_if of step 'fix' raised: 'NoneType' object has no attribute 'upper'; the step was not skipped",
    ]);
  });

  it("uses skip_reason, and finishes the flow when the last step is skipped (NONE / completion)", () => {
    const run = runOf(SPEC, "main", '{"text": "hi"}');
    run.state.current_idx = 3;
    run.state.step_outputs.set("draft", json('{"text": "ok"}'));
    const again = runOf(SPEC, "main", '{"text": "hi"}');
    again.state.current_idx = 3;
    again.state.step_outputs.set("draft", json('{"text": "ok"}'));
    expect(dispatch(txOf(run), run)).toBeNull();
    expect(run.state.current_idx).toBe(4);
    expect(text(dispatchOrComplete(txOf(again), again))).toBe(
      '{"status": "complete", "flow_id": "flow-1", "output": {"text": "ok"}, "trace": [{"step_id": "fix", ' +
        '"skip_reason": "already fine", "type": "skip", "round": 0, "round_start_step_id": null}], ' +
        '"total_duration_ms": 0}',
    );
  });
});

const GATE_SKIP = `version: "0.2"
functions:
  approval: {mode: gate}
flows:
  main:
    input: {auto: {type: boolean}}
    steps:
      - id: a
        intent: "A"
      - id: g
        function: approval
        skip_if: "$.input.auto"
        on_approve: c
        on_revise: a
        on_kill: ~
      - id: b
        intent: "B"
      - id: c
        intent: "C"
`;

describe("gate skip_if", () => {
  it("auto-approves with a PolicyRecord and routes to on_approve without clearing", () => {
    const run = runOf(GATE_SKIP, "main", '{"auto": true}');
    run.state.current_idx = 1;
    const payload = dispatch(txOf(run), run);
    expect(payload?.step_id).toBe("c");
    expect(run.state.step_outputs.get("g")).toBeNull();
    expect(text(run.state.records as never)).toBe(
      '[{"step_id": "g", "effective_policy": "skip_if", "resolved_outcome": "approve", ' +
        '"rationale": "skip_if: $.input.auto", "type": "policy", "round": 0, "round_start_step_id": null}]',
    );
  });

  it("awaits the gate when skip_if is false", () => {
    const run = runOf(GATE_SKIP, "main", '{"auto": false}');
    run.state.current_idx = 1;
    expect(dispatch(txOf(run), run)?.status).toBe("await_gate");
  });
});

describe("dispatch: a gate auto-approved by skip_if that routes back to skipped steps", () => {
  const LOOP = `version: "0.2"
functions:
  approval: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
        skip_if: "True"
      - id: b
        function: approval
        skip_if: "True"
        on_approve: a
        on_revise: a
        on_kill: ~
`;

  it("stops at the gate the second time round instead of looping forever, with a warning", () => {
    const run = runOf(LOOP, "main");
    const tx = txOf(run);
    const payload = dispatch(tx, run);
    expect(payload?.status).toBe("await_gate");
    expect(payload?.step_id).toBe("b");
    expect(run.state.records.map((r) => `${r.type}:${r.step_id}`)).toEqual(["skip:a", "policy:b", "skip:a"]);
    expect(tx.warnings).toEqual([
      "skip_if of gate 'b' held again after routing back to it; the gate waits for stratum_gate_resolve",
    ]);
  });
});
