// Sub-flow steps (docs/reference/runtime.md §8): creating the child, the execute_flow payload, unwrapping the
// child's completion, the child audit snapshot, and detaching (a running child's file is deleted,
// a finished one is kept).
import { describe, expect, it } from "vitest";
import { encodeWire } from "../../../interpreter/wire/encode";
import { harness, plain, planOk, result, stored } from "./api-fixtures";

const SPEC = `version: "0.2"
contracts:
  TestOut:
    passed: {type: boolean}
flows:
  tests:
    input: {target: {type: string}}
    steps:
      - id: run
        intent: "Run the tests"
        inputs: {target: "$.input.target"}
      - id: report
        intent: "Report"
  main:
    input: {target: {type: string}}
    steps:
      - id: test
        flow: tests
        inputs: {target: "$.input.target"}
        output_contract: TestOut
        ensure: ["result.passed"]
      - id: ship
        intent: "Ship"
`;

describe("sub-flow steps", () => {
  it("plan creates the child (same spec text, resolved inputs, parent ids, parent cwd) and stores both", async () => {
    const h = harness("/work/project");
    const plan = await planOk(h.api, SPEC, "main", '{"target": "api"}');
    const parentId = String(plan.parent_flow_id);
    const childId = String(plan.child_flow_id);
    expect(encodeWire(plan)).toBe(
      `{"status": "execute_flow", "parent_flow_id": "${parentId}", "parent_step_id": "test", ` +
        `"child_flow_id": "${childId}", "child_flow_name": "tests", "child_step": {"status": "execute_step", ` +
        `"flow_id": "${childId}", "step_number": 1, "total_steps": 2, "step_id": "run", "step_mode": "inline", ` +
        '"intent": "Run the tests", "agent": null, "inputs": {"target": "api"}, "output_contract": null, ' +
        '"output_fields": {}, "ensure": [], "retries_remaining": 1, "model": null}, "step_number": 1, "total_steps": 2}',
    );
    const parent = await stored(h.store, parentId);
    const child = await stored(h.store, childId);
    expect(parent.active_child_flow_id).toBe(childId);
    expect([child.parent_flow_id, child.parent_step_id, child.cwd, child.raw_spec]).toEqual([
      parentId,
      "test",
      "/work/project",
      SPEC,
    ]);
    expect(encodeWire(child.inputs)).toBe('{"target": "api"}');
  });

  it("resume of the parent reuses the active child", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC, "main", '{"target": "api"}');
    const again = await h.api.resume({ flow_id: String(plan.parent_flow_id) });
    expect(again.child_flow_id).toBe(plan.child_flow_id);
    expect(h.ids.issued).toBe(2);
  });

  it("the parent unwraps the child's completion, records step_mode flow, snapshots the child's audit and keeps the finished child", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC, "main", '{"target": "api"}');
    const parentId = String(plan.parent_flow_id);
    const childId = String(plan.child_flow_id);
    await h.api.stepDone({ flow_id: childId, step_id: "run", result: result('{"ran": 3}') });
    const done = await h.api.stepDone({
      flow_id: childId,
      step_id: "report",
      result: result('{"passed": true}'),
    });
    expect(done.status).toBe("complete");
    const r = await h.api.stepDone({ flow_id: parentId, step_id: "test", result: result(encodeWire(done)) });
    expect(plain(r)).toMatchObject({ status: "execute_step", step_id: "ship" });
    const parent = await stored(h.store, parentId);
    expect(encodeWire(parent.step_outputs)).toBe('{"test": {"passed": true}}');
    expect(parent.active_child_flow_id).toBeNull();
    expect(parent.records.at(-1)).toMatchObject({
      step_mode: "flow",
      child_flow_id: childId,
      function_name: "",
    });
    const audits = parent.child_audits.get("test");
    expect(audits?.length).toBe(1);
    expect(plain(audits?.[0] as never)).toMatchObject({
      flow_id: childId,
      status: "complete",
      steps_completed: 2,
    });
    expect((await stored(h.store, childId)).status).toBe("complete"); // kept (DIV-KEEP-FINISHED)
  });

  it("a failing report exhausts the sub-flow step (limit 1) and deletes the still-running child", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC, "main", '{"target": "api"}');
    const parentId = String(plan.parent_flow_id);
    const childId = String(plan.child_flow_id);
    const r = await h.api.stepDone({
      flow_id: parentId,
      step_id: "test",
      result: result('{"status": "complete", "output": {"passed": false}}'),
    });
    expect(plain(r)).toMatchObject({
      error_type: "retries_exhausted",
      step_mode: "flow",
      violations: ["ensure 'result.passed' failed"],
    });
    expect(await h.store.read(childId)).toBeNull();
    const parent = await stored(h.store, parentId);
    expect(parent.active_child_flow_id).toBeNull();
    expect(parent.status).toBe("exhausted");
    expect(parent.child_audits.get("test")?.length).toBe(1);
    expect(plain(await h.api.audit({ flow_id: childId }))).toMatchObject({ error_type: "flow_not_found" });
  });

  it("a contract violation of the unwrapped output is schema_failed (DIV-FLOW-STEP-CONTRACT)", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC, "main", '{"target": "api"}');
    const r = await h.api.stepDone({
      flow_id: String(plan.parent_flow_id),
      step_id: "test",
      result: result('{"status": "complete", "output": {"passed": "yes"}}'),
    });
    expect(plain(r)).toMatchObject({
      error_type: "retries_exhausted",
      violations: ["contract violation: field 'passed' must be of type boolean, got string"],
    });
  });
});

describe("sub-flow steps after a restart", () => {
  it("a parent whose child finished but was not reported answers child_step null; resume(child) gives the completion", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC, "main", '{"target": "api"}');
    const parentId = String(plan.parent_flow_id);
    const childId = String(plan.child_flow_id);
    await h.api.stepDone({ flow_id: childId, step_id: "run", result: result("{}") });
    await h.api.stepDone({ flow_id: childId, step_id: "report", result: result('{"passed": true}') });
    const api = h.restart();
    const parent = await api.resume({ flow_id: parentId });
    expect(plain(parent)).toMatchObject({ status: "execute_flow", child_flow_id: childId, child_step: null });
    const child = await api.resume({ flow_id: childId });
    expect(plain(child)).toMatchObject({ status: "complete", output: { passed: true } });
    const r = await api.stepDone({ flow_id: parentId, step_id: "test", result: result(encodeWire(child)) });
    expect(r.step_id).toBe("ship");
  });
});
