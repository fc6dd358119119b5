// `gate approve|reject|revise <flow_id> <step_id>`: the CLI's own checks, the resolution through the
// engine (dispatch, policy loop, persistence) and the visibility of the change to a running engine.

import { writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { composeHost } from "../../../host/compose";
import { gateAnswer } from "../../../interpreter/query/gate-resolution";
import { decodeFlowState } from "../../../interpreter/store/codec";
import { encodeWire, wireToPlain } from "../../../interpreter/wire/encode";
import { flowId, result, SPEC, TestHome } from "./harness";

let t: TestHome;
beforeEach(() => {
  t = new TestHome();
});
afterEach(() => t.dispose());

const ID1 = flowId(1);

/** A `reviewed` flow waiting at `review`; returns the engine that drove it (it holds the flow in memory). */
async function atReview() {
  const api = t.api();
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await api.stepDone({ flow_id: ID1, step_id: "draft", result: result('{"text": "hello"}') });
  return api;
}

/** A `routed` flow waiting at `review`. */
async function routedAtReview() {
  const api = t.api();
  await api.plan({ spec: SPEC, flow: "routed" });
  await api.stepDone({ flow_id: ID1, step_id: "prepare", result: result('"ready"') });
  return api;
}

/**
 * The success line. By default it is exactly the reference's gate-mutation.v1 object (a closed
 * schema: an earlier version always added `next`, which broke scripts validating against it);
 * `next` is printed only with `--next` (pass the expected value, null included).
 */
function ok(outcome: string, result: string, next?: string | null, stepId = "review"): string {
  const nextText = next === undefined ? "" : `, "next": ${next === null ? "null" : `"${next}"`}`;
  return `{"_schema_version": "1", "ok": true, "flow_id": "${ID1}", "step_id": "${stepId}", "outcome": "${outcome}", "result": "${result}"${nextText}}\n`;
}

describe("gate: resolutions", () => {
  it("approve with a null on_approve completes the flow", async () => {
    await atReview();
    expect(await t.cli(["gate", "approve", ID1, "review", "--note", "fine"])).toEqual({
      code: 0,
      stdout: ok("approve", "complete"),
      stderr: "",
    });
    // A finished flow is kept but, as in the reference (which deletes it), no longer in progress.
    expect((await t.cli(["query", "flows"])).stdout).toBe("[]\n");
    const flows = JSON.parse((await t.cli(["query", "flows", "--all"])).stdout) as { status: string }[];
    expect(flows.map((f) => f.status)).toEqual(["complete"]);
  });

  it("reject is the outcome kill; a null on_kill kills the flow", async () => {
    await atReview();
    expect(await t.cli(["gate", "reject", ID1, "review", "--next"])).toEqual({
      code: 0,
      stdout: ok("kill", "killed", "killed"),
      stderr: "",
    });
    const flow = JSON.parse((await t.cli(["query", "flow", ID1])).stdout) as Record<string, unknown>;
    expect(flow).toMatchObject({ status: "killed", terminal_status: "killed", current_step_id: null });
  });

  it("revise routes to on_revise; a second revise beyond max_rounds is refused but recorded", async () => {
    const api = await atReview();
    expect((await t.cli(["gate", "revise", ID1, "review", "--note", "more", "--next"])).stdout).toBe(
      ok("revise", "execute_step", "execute_step"),
    );
    await api.stepDone({ flow_id: ID1, step_id: "draft", result: result('{"text": "again"}') });
    expect(await t.cli(["gate", "revise", ID1, "review", "--next"])).toEqual({
      code: 0,
      stdout: ok("revise", "max_rounds_exceeded", null),
      stderr: "",
    });
    const flow = JSON.parse((await t.cli(["query", "flow", ID1])).stdout) as Record<string, unknown>;
    expect(flow).toMatchObject({
      status: "awaiting_gate",
      current_step_id: "review",
      round: 1,
      rounds_count: 1,
    });
    // The refused revise stays in the trace (docs/reference/runtime.md §6.1).
    expect((flow.records as { type: string; outcome?: string }[]).map((r) => r.outcome ?? r.type)).toEqual([
      "step",
      "revise",
    ]);
  });

  it("runs the dispatch and the policy loop: approve routes to a flag gate, which is auto-approved", async () => {
    await routedAtReview();
    // `result` is the reference's (routed to a step); `next` tells that the policy loop finished the flow.
    expect((await t.cli(["gate", "approve", ID1, "review", "--next"])).stdout).toBe(
      ok("approve", "execute_step", "complete"),
    );
    const flow = JSON.parse((await t.cli(["query", "flow", ID1])).stdout) as Record<string, unknown>;
    expect(flow.status).toBe("complete");
    expect((flow.records as Record<string, unknown>[]).slice(1)).toEqual([
      {
        step_id: "review",
        outcome: "approve",
        rationale: "",
        resolved_by: "human",
        duration_ms: 0,
        type: "gate",
        round: 0,
        round_start_step_id: null,
      },
      {
        step_id: "double_check",
        effective_policy: "flag",
        resolved_outcome: "approve",
        rationale: "policy: flag — auto-approved",
        type: "policy",
        round: 0,
        round_start_step_id: null,
      },
    ]);
  });

  it("kill with a named on_kill routes to the cleanup step", async () => {
    await routedAtReview();
    expect((await t.cli(["gate", "reject", ID1, "review", "--resolved-by", "agent"])).stdout).toBe(
      ok("kill", "execute_step"),
    );
    const flow = JSON.parse((await t.cli(["query", "flow", ID1])).stdout) as Record<string, unknown>;
    expect(flow).toMatchObject({ status: "killed", terminal_status: "killed", current_step_id: "cleanup" });
    expect((flow.records as Record<string, unknown>[])[1]).toMatchObject({
      outcome: "kill",
      resolved_by: "agent",
    });
  });

  it("the same under stratum-mcp", async () => {
    await atReview();
    expect(await t.cli(["gate", "approve", ID1, "review"], "stratum-mcp")).toEqual({
      code: 0,
      stdout: ok("approve", "complete"),
      stderr: "",
    });
  });
});

describe("gate: a running engine sees the CLI's resolution", () => {
  it("the engine that holds the flow in memory reloads it from disk before its next call", async () => {
    const api = await atReview();
    await t.cli(["gate", "approve", ID1, "review", "--note", "from the CLI"]);
    // Without the reload this engine would resolve the gate a second time.
    expect(
      wireToPlain(
        await api.gateResolve({
          flow_id: ID1,
          step_id: "review",
          outcome: "kill",
          rationale: "",
          resolved_by: "human",
        }),
      ),
    ).toEqual({ status: "error", error_type: "flow_already_complete", message: "Flow is already complete" });
    const audit = wireToPlain(await api.audit({ flow_id: ID1 })) as {
      status: string;
      trace: Record<string, unknown>[];
    };
    expect(audit.status).toBe("complete");
    expect(audit.trace[1]).toMatchObject({ type: "gate", outcome: "approve", rationale: "from the CLI" });
  });

  it("a revise by the CLI is continued by the engine at the revise target", async () => {
    const api = await atReview();
    await t.cli(["gate", "revise", ID1, "review"]);
    const done = wireToPlain(
      await api.stepDone({ flow_id: ID1, step_id: "draft", result: result('{"text": "v2"}') }),
    ) as Record<string, unknown>;
    expect(done).toMatchObject({ status: "await_gate", step_id: "review" });
    expect(JSON.parse(t.flowText(ID1))).toMatchObject({ round: 1, status: "awaiting_gate" });
  });
});

describe("gate: refusals", () => {
  it("unknown flow → NOT_FOUND, exit 1", async () => {
    expect(await t.cli(["gate", "approve", "no-such-flow", "review"])).toEqual({
      code: 1,
      stdout: `{"error": {"code": "NOT_FOUND", "message": "Flow 'no-such-flow' not found"}}\n`,
      stderr: "",
    });
  });

  it("finished flow → conflict, exit 2 (checked before the step)", async () => {
    await atReview();
    await t.cli(["gate", "approve", ID1, "review"]);
    const before = t.flowText(ID1);
    expect(await t.cli(["gate", "approve", ID1, "draft"])).toEqual({
      code: 2,
      stdout: `{"conflict": true, "flow_id": "${ID1}", "step_id": "draft", "detail": "Flow is already complete"}\n`,
      stderr: "",
    });
    expect(t.flowText(ID1)).toBe(before);
  });

  it("another step than the current one → conflict, exit 2", async () => {
    await atReview();
    expect(await t.cli(["gate", "approve", ID1, "draft"])).toEqual({
      code: 2,
      stdout: `{"conflict": true, "flow_id": "${ID1}", "step_id": "draft", "detail": "Expected gate step 'review', got 'draft'"}\n`,
      stderr: "",
    });
  });

  it("current step not a gate → not_a_gate_step with the function's mode or inline, exit 1", async () => {
    const api = t.api();
    await api.plan({ spec: SPEC, flow: "reviewed" });
    await api.plan({ spec: SPEC, flow: "routed" });
    const before = t.flowText(ID1);
    expect(await t.cli(["gate", "approve", ID1, "draft"])).toEqual({
      code: 1,
      stdout: `{"error": {"code": "not_a_gate_step", "message": "Step 'draft' is not a gate step (mode='infer')"}}\n`,
      stderr: "",
    });
    expect((await t.cli(["gate", "revise", flowId(2), "prepare"])).stdout).toBe(
      `{"error": {"code": "not_a_gate_step", "message": "Step 'prepare' is not a gate step (mode='inline')"}}\n`,
    );
    expect(t.flowText(ID1)).toBe(before);
  });

  it.each([
    [["gate", "accept", "f", "s"]],
    [["gate", "approve", "f"]],
    [["gate", "approve", "f", "s", "extra"]],
    [["gate", "approve", "f", "s", "--resolved-by", "robot"]],
    [["gate", "approve", "f", "s", "--note"]],
  ])("%j is a usage error, exit 2", async (args) => {
    const r = await t.cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toBe("");
  });
});

describe("gate: the flow changes between the CLI's checks and the resolution", () => {
  async function loadedRun() {
    await atReview();
    const decoded = decodeFlowState(t.flowText(ID1));
    if (!decoded.ok) throw new Error(decoded.reason);
    const run = composeHost(t.host()).restore(decoded.state);
    if (run === null) throw new Error("the flow did not restore");
    return run;
  }

  it("the engine's wrong_step and flow_already_complete are the documented conflicts", async () => {
    const run = await loadedRun();
    const wrong = {
      status: "error",
      error_type: "wrong_step",
      message: "Expected gate step 'x', got 'review'",
    };
    expect(encodeWire(gateAnswer(run, "review", "approve", wrong).output)).toBe(
      `{"conflict": true, "flow_id": "${ID1}", "step_id": "review", "detail": "Expected gate step 'x', got 'review'"}`,
    );
    const done = {
      status: "error",
      error_type: "flow_already_complete",
      message: "Flow is already complete",
    };
    expect(gateAnswer(run, "review", "kill", done).kind).toBe("conflict");
    const gone = {
      status: "error",
      error_type: "flow_not_found",
      message: `No active flow with id '${ID1}'`,
    };
    expect(encodeWire(gateAnswer(run, "review", "kill", gone).output)).toBe(
      `{"error": {"code": "NOT_FOUND", "message": "Flow '${ID1}' not found"}}`,
    );
  });

  it("a flow locked by another process answers state_locked, exit 1, and changes nothing", async () => {
    await atReview();
    const before = t.flowText(ID1);
    writeFileSync(`${t.flowFile(ID1)}.lock`, "");
    expect(await t.cli(["gate", "approve", ID1, "review"])).toEqual({
      code: 1,
      stdout: `{"error": {"code": "state_locked", "message": "Flow '${ID1}' is locked by another process; retry the call"}}\n`,
      stderr: "",
    });
    expect(t.flowText(ID1)).toBe(before);
  });
});
