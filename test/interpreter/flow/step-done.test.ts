// stratum_step_done (docs/reference/runtime.md §4): the stages, retry, exhaustion with and without on_fail,
// `next` routing and clearing, and the persisted outcome of each.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeWire } from "../../../interpreter/wire/encode";
import { harness, plain, planOk, result, stored } from "./api-fixtures";

const FN_SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  gen:
    mode: infer
    intent: "Generate"
    input: {}
    output: Out
    ensure: ["result.v == 'good'"]
    retries: 2
flows:
  main:
    input: {}
    steps:
      - id: generate
        function: gen
      - id: publish
        intent: "Publish"
        inputs: {v: "$.steps.generate.output.v"}
`;

describe("step_done: retry and exhaustion", () => {
  it("a failing ensure is retried: the payload again with status ensure_failed and violations last", async () => {
    const h = harness();
    const plan = await planOk(h.api, FN_SPEC);
    const r = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "generate",
      result: result('{"v": "bad"}'),
    });
    expect(encodeWire(r)).toBe(
      `{"status": "ensure_failed", "flow_id": "${plan.flow_id}", "step_number": 1, "total_steps": 2, ` +
        '"step_id": "generate", "step_mode": "function", "function": "gen", "agent": null, "mode": "infer", ' +
        '"intent": "Generate", "inputs": {}, "output_contract": "Out", "output_fields": {"v": "string"}, ' +
        `"ensure": ["result.v == 'good'"], "retries_remaining": 1, "violations": ["ensure 'result.v == 'good'' failed"]}`,
    );
    const state = await stored(h.store, String(plan.flow_id));
    expect(state.attempts.get("generate")).toBe(1);
    expect(state.step_outputs.has("generate")).toBe(false);
  });

  it("a contract violation is schema_failed and stops before ensure", async () => {
    const h = harness();
    const plan = await planOk(h.api, FN_SPEC);
    const r = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "generate",
      result: result('{"v": 3}'),
    });
    expect(r.status).toBe("schema_failed");
    expect(plain(r)).toMatchObject({
      violations: ["contract violation: field 'v' must be of type string, got integer"],
    });
  });

  // The reference's test_roundtrip_output_schema_missing_required_field and
  // test_roundtrip_output_schema_exhausts_retries: the result breaks the contract (which the
  // reference does not check) and the output_schema; the output_schema violations must be listed.
  const ROUNDTRIP_SPEC = (retries: number) => `version: "0.1"
contracts:
  Out:
    path: {type: string}
functions:
  write_doc:
    mode: compute
    intent: "Write a design doc"
    input: {name: {type: string}}
    output: Out
    retries: ${retries}
flows:
  main:
    input: {name: {type: string}}
    output: Out
    steps:
      - id: s1
        function: write_doc
        inputs: {name: "$.input.name"}
        output_schema:
          type: object
          required: [path]
          properties:
            path: {type: string}
`;

  it("contract and output_schema violations are listed together, contract first", async () => {
    const h = harness();
    const plan = await planOk(h.api, ROUNDTRIP_SPEC(3), "main", '{"name": "feature-x"}');
    const r = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "s1",
      result: result('{"word_count": 100}'),
    });
    expect(r.status).toBe("schema_failed");
    expect(plain(r)).toMatchObject({
      retries_remaining: 2,
      violations: [
        "contract violation: missing required field 'path' (contract 'Out')",
        "output_schema violation: 'path' is a required property",
      ],
    });
    const done = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "s1",
      result: result('{"path": "/tmp/design.md"}'),
    });
    expect(done.status).toBe("complete");
  });

  it("exhaustion after contract + output_schema failures lists both kinds of violation", async () => {
    const h = harness();
    const plan = await planOk(h.api, ROUNDTRIP_SPEC(2), "main", '{"name": "feature-x"}');
    const args = { flow_id: String(plan.flow_id), step_id: "s1", result: result('{"word_count": 0}') };
    await h.api.stepDone(args);
    const r = await h.api.stepDone(args);
    expect(r.status).toBe("error");
    expect(plain(r)).toMatchObject({
      error_type: "retries_exhausted",
      violations: [
        "contract violation: missing required field 'path' (contract 'Out')",
        "output_schema violation: 'path' is a required property",
      ],
    });
  });

  it("extra keys pass both the contract and the output_schema", async () => {
    const h = harness();
    const plan = await planOk(h.api, ROUNDTRIP_SPEC(3), "main", '{"name": "x"}');
    const r = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "s1",
      result: result('{"path": "p", "extra": 1}'),
    });
    expect(r.status).toBe("complete");
  });

  it("exhaustion without on_fail: retries_exhausted, the flow stays on the step and is stored as exhausted", async () => {
    const h = harness();
    const plan = await planOk(h.api, FN_SPEC);
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "generate", result: result('{"v": "bad"}') });
    const r = await h.api.stepDone({ flow_id: id, step_id: "generate", result: result('{"v": "worse"}') });
    expect(encodeWire(r)).toBe(
      `{"status": "error", "error_type": "retries_exhausted", "flow_id": "${id}", "step_id": "generate", ` +
        `"step_mode": "function", "agent": null, "message": "Step 'generate' exhausted all retries", ` +
        `"violations": ["ensure 'result.v == 'good'' failed"]}`,
    );
    const state = await stored(h.store, id);
    expect(state.status).toBe("exhausted");
    expect(state.current_idx).toBe(0);
    expect(
      state.records.map((rec) => [rec.type, rec.step_id, rec.type === "step" ? rec.attempts : null]),
    ).toEqual([["step", "generate", 2]]);
    // Further reports exhaust again immediately.
    const again = await h.api.stepDone({ flow_id: id, step_id: "generate", result: result('{"v": "bad"}') });
    expect(again.error_type).toBe("retries_exhausted");
    expect((await stored(h.store, id)).attempts.get("generate")).toBe(3);
  });

  it("success stores the result, appends a StepRecord with the duration since dispatch and moves on", async () => {
    const h = harness();
    const plan = await planOk(h.api, FN_SPEC);
    const id = String(plan.flow_id);
    h.clock.advance(1234);
    const r = await h.api.stepDone({ flow_id: id, step_id: "generate", result: result('{"v": "good"}') });
    expect(plain(r)).toMatchObject({ status: "execute_step", step_id: "publish", inputs: { v: "good" } });
    const state = await stored(h.store, id);
    expect(encodeWire(state.records as never)).toBe(
      '[{"step_id": "generate", "function_name": "gen", "attempts": 1, "duration_ms": 1234, "type": "step", ' +
        '"round": 0, "round_start_step_id": null, "agent": null, "step_mode": "function", "child_flow_id": null, ' +
        '"cache_hit": false, "cache_key": null}]',
    );
  });
});

const ROUTING_SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  gen:
    mode: infer
    intent: "Generate"
    input: {}
    output: Out
    ensure: ["result.v == 'good'"]
    retries: 1
flows:
  main:
    input: {}
    steps:
      - id: generate
        function: gen
        on_fail: fix
      - id: check
        intent: "Check"
      - id: fix
        intent: "Fix"
        inputs: {prior: "$.steps.generate.output.v"}
        next: generate
`;

describe("step_done: on_fail and next", () => {
  it("on_fail keeps the rejected result and the failing step's attempts, clears from the target and routes", async () => {
    const h = harness();
    const plan = await planOk(h.api, ROUTING_SPEC);
    const id = String(plan.flow_id);
    const r = await h.api.stepDone({ flow_id: id, step_id: "generate", result: result('{"v": "bad"}') });
    expect(encodeWire(r)).toBe(
      `{"status": "execute_step", "flow_id": "${id}", "step_number": 3, "total_steps": 3, "step_id": "fix", ` +
        '"step_mode": "inline", "intent": "Fix", "agent": null, "inputs": {"prior": "bad"}, "output_contract": null, ' +
        '"output_fields": {}, "ensure": [], "retries_remaining": 1, "model": null, "routed_from": "generate", ' +
        `"violations": ["ensure 'result.v == 'good'' failed"]}`,
    );
    const state = await stored(h.store, id);
    expect(encodeWire(state.step_outputs)).toBe('{"generate": {"v": "bad"}}');
    expect(encodeWire(state.attempts)).toBe('{"generate": 1}');
  });

  it("next clears the target and everything after it, so the target gets its full retries again", async () => {
    const h = harness();
    const plan = await planOk(h.api, ROUTING_SPEC);
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "generate", result: result('{"v": "bad"}') });
    const r = await h.api.stepDone({ flow_id: id, step_id: "fix", result: result('{"done": true}') });
    expect(plain(r)).toMatchObject({ status: "execute_step", step_id: "generate", retries_remaining: 1 });
    const state = await stored(h.store, id);
    expect(state.step_outputs.size).toBe(0);
    expect(state.attempts.size).toBe(0);
    expect(state.records.map((rec) => rec.step_id)).toEqual(["generate", "fix"]); // records stay
  });

  it("on_fail routing into a tail that is skipped answers the completion payload plus routed_from and violations", async () => {
    const spec = ROUTING_SPEC.replace("        next: generate\n", '        skip_if: "True"\n').replace(
      '      - id: check\n        intent: "Check"\n',
      "",
    );
    const h = harness();
    const plan = await planOk(h.api, spec);
    const id = String(plan.flow_id);
    const r = await h.api.stepDone({ flow_id: id, step_id: "generate", result: result('{"v": "bad"}') });
    expect(plain(r)).toEqual({
      status: "complete",
      flow_id: id,
      output: { v: "bad" },
      trace: [
        expect.objectContaining({ type: "step", step_id: "generate", attempts: 1 }),
        expect.objectContaining({ type: "skip", step_id: "fix", skip_reason: "skip_if: True" }),
      ],
      total_duration_ms: 0,
      routed_from: "generate",
      violations: ["ensure 'result.v == 'good'' failed"],
    });
    expect((await stored(h.store, id)).status).toBe("complete");
  });
});

describe("step_done: rejected calls change nothing", () => {
  it("wrong step and finished flow are execution errors; a gate needs gate_resolve", async () => {
    const spec = `version: "0.2"
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
        on_kill: ~
`;
    const h = harness();
    const plan = await planOk(h.api, spec);
    const id = String(plan.flow_id);
    const before = (await h.store.read(id))?.text;
    expect(plain(await h.api.stepDone({ flow_id: id, step_id: "zzz", result: result("{}") }))).toEqual({
      status: "error",
      success: false,
      error_type: "execution_error",
      message: "Expected step 'a', got 'zzz'",
    });
    expect((await h.store.read(id))?.text).toBe(before);
    await h.api.stepDone({ flow_id: id, step_id: "a", result: result("{}") });
    expect(plain(await h.api.stepDone({ flow_id: id, step_id: "g", result: result("{}") }))).toEqual({
      status: "error",
      error_type: "gate_step_requires_gate_resolve",
      message: "Step 'g' is a gate step. Use stratum_gate_resolve to resolve it.",
    });
    await h.api.gateResolve({
      flow_id: id,
      step_id: "g",
      outcome: "approve",
      rationale: "",
      resolved_by: "human",
    });
    expect(plain(await h.api.stepDone({ flow_id: id, step_id: "g", result: result("{}") }))).toMatchObject({
      error_type: "execution_error",
      message: "Flow is already complete",
    });
    expect(plain(await h.api.stepDone({ flow_id: "nope", step_id: "a", result: result("{}") }))).toEqual({
      status: "error",
      error_type: "flow_not_found",
      message: "No active flow with id 'nope'",
    });
  });
});

describe("step_done: retry re-dispatch re-evaluates skip_if", () => {
  it("a retry whose step is now skipped to the end answers the completion payload plus violations", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stratum-a1-"));
    try {
      const spec = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: only
        intent: "Only"
        ensure: ["result.ok"]
        retries: 2
        skip_if: "file_exists('skip.txt')"
`;
      const h = harness(dir);
      const plan = await planOk(h.api, spec);
      writeFileSync(join(dir, "skip.txt"), "x");
      const r = await h.api.stepDone({
        flow_id: String(plan.flow_id),
        step_id: "only",
        result: result('{"ok": false}'),
      });
      expect(plain(r)).toMatchObject({
        status: "complete",
        output: null,
        violations: ["ensure 'result.ok' failed"],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
