// The flow commands through the real entry points (the built bundle, as `stratumc` and as
// `stratum-mcp`): flows made by an engine in a temporary STRATUM_HOME are queried, a gate is
// resolved from the command line, and the engine that held the flow sees the new state.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { ensureBundle, REPO } from "../run-cli";
import { result, SPEC, TestHome } from "./harness";

let t: TestHome;
beforeAll(() => ensureBundle());
beforeEach(() => {
  t = new TestHome();
});
afterEach(() => t.dispose());

function run(bin: "stratumc" | "stratum-mcp", args: readonly string[]) {
  const r = spawnSync(process.execPath, [join(REPO, `bin/${bin}.cjs`), ...args], {
    encoding: "utf8",
    env: { ...process.env, STRATUM_HOME: t.home },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("flow commands through the binaries", () => {
  it("query gates, gate approve as stratum-mcp, query flow: the engine sees the resolution", async () => {
    const api = t.api();
    const planned = await api.plan({ spec: SPEC, flow: "reviewed" });
    const id = String(planned.flow_id);
    await api.stepDone({ flow_id: id, step_id: "draft", result: result('{"text": "ok"}') });

    const gates = run("stratumc", ["query", "gates"]);
    expect(gates.code).toBe(0);
    expect(JSON.parse(gates.stdout)).toEqual([
      {
        _schema_version: "1",
        flow_id: id,
        flow_name: "reviewed",
        step_id: "review",
        function: "review",
        on_approve: null,
        on_revise: "draft",
        on_kill: null,
        timeout: 3600,
      },
    ]);

    const gate = run("stratum-mcp", ["gate", "approve", id, "review", "--note", "looks good"]);
    expect(gate).toEqual({
      code: 0,
      // gate-mutation.v1 exactly (no `next` unless --next is given).
      stdout: `{"_schema_version": "1", "ok": true, "flow_id": "${id}", "step_id": "review", "outcome": "approve", "result": "complete"}\n`,
      stderr: "",
    });

    const flow = run("stratumc", ["query", "flow", id]);
    expect(flow.code).toBe(0);
    expect(JSON.parse(flow.stdout)).toMatchObject({
      status: "complete",
      current_step_id: null,
      current_idx: 2,
    });

    // The engine still holds the flow in memory: it reloads the newer revision (docs/reference/runtime.md §14.3).
    const audit = wireToPlain(await api.audit({ flow_id: id }));
    expect(audit).toMatchObject({ status: "complete" });
    expect((audit as { trace: { rationale?: string }[] }).trace.at(-1)?.rationale).toBe("looks good");
  });

  it("gate: unknown flow → NOT_FOUND exit 1; another step → conflict exit 2; not a gate → exit 1", async () => {
    const api = t.api();
    const planned = await api.plan({ spec: SPEC, flow: "reviewed" });
    expect(run("stratumc", ["gate", "approve", "no-such-flow", "review"])).toEqual({
      code: 1,
      stdout: `{"error": {"code": "NOT_FOUND", "message": "Flow 'no-such-flow' not found"}}\n`,
      stderr: "",
    });
    const id = String(planned.flow_id);
    expect(run("stratumc", ["gate", "approve", id, "elsewhere"])).toEqual({
      code: 2,
      stdout: `{"conflict": true, "flow_id": "${id}", "step_id": "elsewhere", "detail": "Expected gate step 'draft', got 'elsewhere'"}\n`,
      stderr: "",
    });
    expect(run("stratumc", ["gate", "approve", id, "draft"])).toEqual({
      code: 1,
      stdout: `{"error": {"code": "not_a_gate_step", "message": "Step 'draft' is not a gate step (mode='infer')"}}\n`,
      stderr: "",
    });
  });
});
