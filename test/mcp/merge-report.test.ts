// The object form of merge_status (0.2.69) through the built stratum-mcp over stdio: the bounce
// records a consumer reports come back as `bounced_tasks` on every failure envelope of
// stratum_parallel_done and are worded in `violations`; a success carries no such key; the
// argument schema refuses a malformed object.
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import { callTool } from "./support/mcp-api";
import { restartableServer } from "./support/restartable-server";

const SPEC = `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
flows:
  main:
    input: {}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break down"
        output_contract: TaskGraph
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
`;

const BOTH_COMPLETE = `[{"task_id": "t1", "result": {}, "status": "complete"}, {"task_id": "t2", "result": {}, "status": "complete"}]`;

type Plain = Record<string, unknown>;

describe("merge_status as an object over MCP", () => {
  const servers = restartableServer("stratum-mcp-merge-report-");

  async function atParallelStep(): Promise<string> {
    const api = await servers.restart();
    const plan = p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() }));
    const id = String(plan.flow_id);
    const tasks = parseJson(`{"tasks": [{"id": "t1", "desc": "one"}, {"id": "t2", "desc": "two"}]}`);
    const dispatched = p(await api.stepDone({ flow_id: id, step_id: "analyze", result: tasks }));
    expect(dispatched).toMatchObject({ status: "parallel_dispatch", step_id: "execute" });
    return id;
  }

  async function done(id: string, taskResults: string, mergeStatus: unknown): Promise<Plain> {
    const answer = await callTool(
      servers.client(),
      "stratum_parallel_done",
      { flow_id: id, step_id: "execute", task_results: parseJson(taskResults), merge_status: mergeStatus },
      [],
    );
    return p(answer.response);
  }

  it("echoes the bounce records on ensure_failed and retries_exhausted, worded in violations", async () => {
    const id = await atParallelStep();
    const bounced = [
      { task_id: "t1", reason: "merge_conflict", files: ["a.py", "b.py"] },
      { task_id: "t2", reason: "gate_failed", command: "npm test", exit_code: 1 },
      { task_id: "t2", reason: "something_else" },
    ];
    const first = await done(id, BOTH_COMPLETE, { status: "conflict", bounced_tasks: bounced });
    expect(first).toMatchObject({ status: "ensure_failed", step_id: "execute" });
    expect(first.violations).toEqual([
      "merge conflict: merge_status='conflict'",
      "task 't1' merge conflict on a.py, b.py",
      "task 't2' failed pre-merge gate `npm test` (exit 1) — diff NOT merged",
    ]);
    expect(first.bounced_tasks).toEqual(bounced);

    // The bare string: a failure envelope still has the key, empty.
    const second = await done(id, `[{"task_id": "t1", "status": "failed"}]`, "clean");
    expect(second).toMatchObject({ status: "error", error_type: "retries_exhausted", bounced_tasks: [] });
    expect(second.violations).toEqual(["require='all' not satisfied: 0 completed, 1 failed"]);
  });

  it("decides on status alone: clean bounces (or a missing status) let the step pass without the key", async () => {
    const id = await atParallelStep();
    const answer = await done(id, BOTH_COMPLETE, {
      bounced_tasks: [{ task_id: "t1", reason: "merge_conflict", files: [] }],
    });
    expect(answer).toMatchObject({
      status: "complete",
      output: { merge_status: "clean", outcome: "complete" },
    });
    expect(answer).not.toHaveProperty("bounced_tasks");
  });

  it("words a conflict bounce without files as unknown files", async () => {
    const id = await atParallelStep();
    const answer = await done(id, BOTH_COMPLETE, {
      status: "conflict",
      bounced_tasks: [{ task_id: "t1", reason: "merge_conflict" }],
    });
    expect(answer.violations).toEqual([
      "merge conflict: merge_status='conflict'",
      "task 't1' merge conflict on (unknown files)",
    ]);
  });

  it("refuses a merge_status that is neither a string nor {status, bounced_tasks} of objects", async () => {
    await servers.restart();
    const cases: [unknown, string][] = [
      [5, "merge_status: expected string or object, got integer"],
      [{ status: "conflict", bounced_tasks: "t1" }, "merge_status.bounced_tasks: expected array, got string"],
      [{ status: 1 }, "merge_status.status: expected string, got integer"],
      [{ bounced_tasks: [1] }, "merge_status.bounced_tasks[0]: expected object, got integer"],
    ];
    for (const [bad, message] of cases) {
      expect(await done("x", BOTH_COMPLETE, bad)).toEqual({
        status: "error",
        error_type: "invalid_arguments",
        message,
      });
    }
  });
});

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}
