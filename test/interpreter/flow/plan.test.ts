// stratum_plan (docs/reference/runtime.md §16.4) and stratum_validate (docs/reference/runtime.md §16.3): validation errors spread into the
// response, unknown flows, input warnings, the completion payload when nothing is left to do, and
// nothing created when the first dispatch fails.
import { describe, expect, it } from "vitest";
import { encodeWire } from "../../../interpreter/wire/encode";
import { harness, plain, result, stored } from "./api-fixtures";

const SPEC = `version: "0.2"
flows:
  main:
    input: {name: {type: string}, count: {type: integer}, ratio: {type: number}, tags: {type: array}}
    steps:
      - id: a
        intent: "A"
        inputs: {name: "$.input.name"}
`;

describe("plan", () => {
  it("an invalid spec answers the first error's keys at top level plus every error", async () => {
    const h = harness();
    const r = await h.api.plan({ spec: 'version: "0.2"\nflows: {}\nbogus: 1\n', flow: "main" });
    const body = plain(r) as Record<string, unknown>;
    expect(Object.keys(body).slice(0, 5)).toEqual(["status", "success", "error_type", "path", "message"]);
    expect(body.status).toBe("error");
    expect(body.success).toBe(false);
    const errors = body.errors as Record<string, unknown>[];
    expect(errors.length).toBeGreaterThan(0);
    expect(body.message).toBe(errors[0]?.message);
    expect(body.code).toBe(errors[0]?.code);
    expect(await h.store.list()).toEqual([]);
  });

  it("an unknown flow is an execution error", async () => {
    const h = harness();
    expect(plain(await h.api.plan({ spec: SPEC, flow: "other" }))).toEqual({
      status: "error",
      success: false,
      error_type: "execution_error",
      message: "Flow 'other' not found in spec",
    });
  });

  it("warns about missing and mistyped inputs (declaration order), as the last key; integral floats are integers", async () => {
    const h = harness();
    const r = await h.api.plan({
      spec: SPEC,
      flow: "main",
      inputs: result('{"name": "x", "count": 2.0, "ratio": "high", "extra": 1}'),
    });
    expect(r.status).toBe("execute_step");
    expect(Object.keys(r).at(-1)).toBe("warnings");
    expect(r.warnings).toEqual(["input 'ratio': expected number, got string", "input 'tags' is missing"]);
  });

  it("stores the new flow with revision 1, status running, the server cwd and the inputs as given", async () => {
    const h = harness("/srv/project");
    const r = await h.api.plan({
      spec: SPEC,
      flow: "main",
      inputs: result('{"name": "x", "count": 1, "ratio": 0.5, "tags": []}'),
    });
    expect(r.warnings).toBeUndefined();
    const state = await stored(h.store, String(r.flow_id));
    expect([state.revision, state.status, state.cwd, state.flow_name]).toEqual([
      1,
      "running",
      "/srv/project",
      "main",
    ]);
    expect(encodeWire(state.inputs)).toBe('{"name": "x", "count": 1, "ratio": 0.5, "tags": []}');
  });

  it("answers the completion payload when every step is skipped (DIV-PLAN-NULL) and stores it complete", async () => {
    const h = harness();
    const spec = SPEC.replace('        inputs: {name: "$.input.name"}\n', '        skip_if: "true"\n');
    const r = await h.api.plan({
      spec,
      flow: "main",
      inputs: result('{"name": "x", "count": 1, "ratio": 1, "tags": []}'),
    });
    expect(plain(r)).toEqual({
      status: "complete",
      flow_id: r.flow_id,
      output: null,
      trace: [
        { step_id: "a", skip_reason: "skip_if: true", type: "skip", round: 0, round_start_step_id: null },
      ],
      total_duration_ms: 0,
    });
    expect((await stored(h.store, String(r.flow_id))).status).toBe("complete");
  });

  it("a first dispatch that fails creates nothing (DIV-ATOMIC)", async () => {
    const h = harness();
    const r = await h.api.plan({ spec: SPEC, flow: "main", inputs: result("{}") });
    expect(plain(r)).toEqual({
      status: "error",
      success: false,
      error_type: "execution_error",
      message: "$.input.name not found in flow inputs",
      flow_name: "main",
      step_id: "a",
      input: "name",
      warnings: [
        "input 'name' is missing",
        "input 'count' is missing",
        "input 'ratio' is missing",
        "input 'tags' is missing",
      ],
    });
    expect(await h.store.list()).toEqual([]);
  });
});

describe("validate", () => {
  it("answers {valid, errors, warnings}", async () => {
    const h = harness();
    expect(plain(await h.api.validate({ spec: SPEC }))).toEqual({ valid: true, errors: [], warnings: [] });
    const bad = plain(await h.api.validate({ spec: "version: 1\n" })) as {
      valid: boolean;
      errors: unknown[];
    };
    expect(bad.valid).toBe(false);
    expect(bad.errors.length).toBeGreaterThan(0);
  });
});
