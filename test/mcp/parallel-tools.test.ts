// Version 0.3 through the built stratum-mcp over stdio with the SDK client: a decompose step, a
// parallel_dispatch step reported with stratum_parallel_done (a failure then success, floats in a
// task result kept as floats), the server path without an agent runner
// (server_dispatch_unavailable), poll/advance error envelopes (B6), a server restart in the
// middle of the parallel step, and the argument schema of stratum_parallel_done.
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
        ensure:
          - "no_file_conflicts(result.tasks)"
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        require: 2.0
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
`;

type Plain = Record<string, unknown>;

describe("the parallel tools over MCP", () => {
  // No agent runner: the server-side path answers server_dispatch_unavailable.
  const servers = restartableServer("stratum-mcp-parallel-");
  const restart = () => servers.restart();
  const client = () => servers.client();

  it("runs decompose → parallel_dispatch with stratum_parallel_done across a restart", async () => {
    let api = await restart();
    const plan = p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() }));
    expect(plan).toMatchObject({ status: "execute_step", step_mode: "decompose", retries_remaining: 2 });
    const id = String(plan.flow_id);
    const tasks = parseJson(
      `{"tasks": [{"id": "t1", "desc": "one", "files_owned": ["a.py"]}, {"id": "t2", "desc": "two"}]}`,
    );
    const dispatchAnswer = await callTool(
      client(),
      "stratum_step_done",
      { flow_id: id, step_id: "analyze", result: tasks },
      api.problems,
    );
    // The payload as sent: `require: 2.0` stays a float.
    expect(dispatchAnswer.text).toContain(`"require": 2.0,`);
    expect(p(dispatchAnswer.response)).toMatchObject({
      status: "parallel_dispatch",
      step_id: "execute",
      tasks: [{ id: "t1" }, { id: "t2" }],
    });

    const unavailable = p(await api.parallelStart({ flow_id: id, step_id: "execute" }));
    expect(unavailable).toMatchObject({ status: "error", error_type: "server_dispatch_unavailable" });
    expect(p(await api.parallelPoll({ flow_id: id, step_id: "execute" }))).toMatchObject({
      status: "error",
      error_type: "not_dispatched",
      error: "step 'execute' not dispatched yet; call stratum_parallel_start first",
    });
    expect(
      p(await api.parallelAdvance({ flow_id: id, step_id: "execute", merge_status: "clean" })),
    ).toMatchObject({
      status: "error",
      error_type: "advance_not_deferred",
      error: "advance_not_deferred",
    });

    const failing = p(
      await api.parallelDone({
        flow_id: id,
        step_id: "execute",
        task_results: parseJson(
          `[{"task_id": "t1", "result": {}, "status": "complete"}, {"task_id": "t2", "status": "failed"}]`,
        ),
        merge_status: "clean",
      }),
    );
    expect(failing).toMatchObject({
      status: "ensure_failed",
      retries_remaining: 1,
      violations: ["require='2.0' not satisfied: 1 completed, 1 failed"],
    });

    api = await restart();
    const resumed = p(await api.resume({ flow_id: id }));
    expect(resumed).toMatchObject({ status: "parallel_dispatch", step_id: "execute", retries_remaining: 1 });
    const finish = await callTool(
      client(),
      "stratum_parallel_done",
      {
        flow_id: id,
        step_id: "execute",
        task_results: parseJson(
          `[{"task_id": "t1", "result": {"score": 1.0}, "status": "complete"}, {"task_id": "t2", "result": {}, "status": "complete"}]`,
        ),
        merge_status: "clean",
      },
      api.problems,
    );
    expect(finish.isError).toBe(false);
    expect(finish.text).toContain(`"score": 1.0`);
    expect(p(finish.response)).toMatchObject({
      status: "complete",
      output: { outcome: "complete", merge_status: "clean" },
    });
    const audit = p(await api.audit({ flow_id: id }));
    expect(audit).toMatchObject({
      status: "complete",
      trace: [
        { step_id: "analyze", step_mode: "decompose" },
        { step_id: "execute", step_mode: "parallel_dispatch", attempts: 2 },
      ],
    });
    expect(api.problems).toEqual([]);
  });

  it("answers invalid_arguments for a task_results that is not an array of objects", async () => {
    await restart();
    const answer = await callTool(
      client(),
      "stratum_parallel_done",
      { flow_id: "x", step_id: "y", task_results: parseJson(`[1]`), merge_status: "clean" },
      [],
    );
    expect(answer.isError).toBe(true);
    expect(p(answer.response)).toMatchObject({ status: "error", error_type: "invalid_arguments" });
    expect(String((answer.response as Plain).message)).toContain("task_results[0]");
  });
});

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}
