// A pipeline step (reference 0.2.69) through the built stratum-mcp over stdio with the SDK client:
// the dispatch payload unfolds the stages over the source (one task per element and stage), the
// agent reports the stage tasks with stratum_parallel_done, a missing stage fails `require: all`
// and is retried, a full report completes the step with the aggregate by element, and a server
// without an agent runner answers stratum_parallel_start as for a parallel step (the server path
// itself: pipeline-server-dispatch.test.ts). A pipeline with a fanout region is refused on this path.
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import { restartableServer } from "./support/restartable-server";

const SPEC = `version: "0.3"
contracts:
  Files:
    files: {type: array}
functions:
  seed:
    mode: infer
    intent: "List the files"
    input: {}
    output: Files
flows:
  main:
    input: {}
    steps:
      - id: seed
        function: seed
        inputs: {}
      - id: pipe
        type: pipeline
        source: "$.steps.seed.output.files"
        depends_on: [seed]
        stages:
          - {intent_template: "extract {item}"}
          - {intent_template: "review {prev}", when: "prev_raw['public']"}
        ensure: ["len(result.items) == 2"]
`;

const FANOUT = `version: "0.3"
flows:
  main:
    input: {files: {type: array}}
    steps:
      - id: pipe
        type: pipeline
        source: "$.input.files"
        stages:
          - {intent_template: "split {item}", fanout: {max: 2}}
          - {intent_template: "check {item}"}
          - {intent_template: "merge {prevs}", join: true}
`;

type Plain = Record<string, unknown>;

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}

describe("pipeline steps over MCP", () => {
  const servers = restartableServer("stratum-mcp-pipeline-");

  it("unfolds, judges by element, retries and completes", async () => {
    const api = await servers.restart();
    const plan = p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() }));
    const id = String(plan.flow_id);
    const dispatched = p(
      await api.stepDone({ flow_id: id, step_id: "seed", result: parseJson(`{"files": ["a.py", "b.py"]}`) }),
    );
    expect(dispatched).toMatchObject({
      status: "parallel_dispatch",
      step_mode: "parallel_dispatch",
      pipeline: true,
      intent_template: null,
      retries_remaining: 2,
      stages: [
        { intent_template: "extract {item}" },
        { intent_template: "review {prev}", when: "prev_raw['public']" },
      ],
    });
    const tasks = dispatched.tasks as Plain[];
    expect(tasks.map((t) => [t.id, t.depends_on, t._pipeline_role, t.item])).toEqual([
      ["pipe::item0::stage0", [], "plain", "a.py"],
      ["pipe::item0::stage1", ["pipe::item0::stage0"], "plain", "a.py"],
      ["pipe::item1::stage0", [], "plain", "b.py"],
      ["pipe::item1::stage1", ["pipe::item1::stage0"], "plain", "b.py"],
    ]);
    expect(p(await api.parallelStart({ flow_id: id, step_id: "pipe" }))).toMatchObject({
      status: "error",
      error_type: "server_dispatch_unavailable",
    });

    // Element 1's second stage is left out: that element is incomplete, so `require: all` fails.
    const short = p(
      await api.parallelDone({
        flow_id: id,
        step_id: "pipe",
        task_results: parseJson(`[
          {"task_id": "pipe::item0::stage0", "result": {"public": false}, "status": "complete"},
          {"task_id": "pipe::item0::stage1", "result": null, "status": "skipped"},
          {"task_id": "pipe::item1::stage0", "result": {"public": true}, "status": "complete"}
        ]`),
        merge_status: "clean",
      }),
    );
    expect(short).toMatchObject({
      status: "ensure_failed",
      retries_remaining: 1,
      violations: ["require='all' not satisfied: 2 completed, 0 failed"],
    });

    const done = p(
      await api.parallelDone({
        flow_id: id,
        step_id: "pipe",
        task_results: parseJson(`[
          {"task_id": "pipe::item0::stage0", "result": {"public": false}, "status": "complete"},
          {"task_id": "pipe::item0::stage1", "result": null, "status": "skipped"},
          {"task_id": "pipe::item1::stage0", "result": {"public": true}, "status": "complete"},
          {"task_id": "pipe::item1::stage1", "result": {"ok": true}, "status": "complete"}
        ]`),
        merge_status: "clean",
      }),
    );
    expect(done).toMatchObject({
      status: "complete",
      output: {
        items: [
          { item: "a.py", status: "complete", result: null, stages: [{ public: false }, null] },
          {
            item: "b.py",
            status: "complete",
            result: { ok: true },
            stages: [{ public: true }, { ok: true }],
          },
        ],
        require_satisfied: true,
        merge_status: "clean",
        outcome: "complete",
      },
    });
  });

  it("refuses a fanned-out pipeline on the consumer path, the flow staying at the step", async () => {
    const api = await servers.restart();
    const plan = p(
      await api.plan({ spec: FANOUT, flow: "main", inputs: parseJson(`{"files": ["a.py"]}`) as PyDict }),
    );
    expect((plan.tasks as Plain[]).map((t) => t.id)).toEqual([
      "pipe::item0::stage0",
      "pipe::item0::stage1::lane0",
      "pipe::item0::stage1::lane1",
      "pipe::item0::stage2",
    ]);
    const refused = p(
      await api.parallelDone({
        flow_id: String(plan.flow_id),
        step_id: "pipe",
        task_results: parseJson("[]"),
        merge_status: "clean",
      }),
    );
    expect(refused).toMatchObject({ status: "error", error_type: "fanout_server_dispatched_only" });
    expect(p(await api.resume({ flow_id: String(plan.flow_id) }))).toMatchObject({
      status: "parallel_dispatch",
      step_id: "pipe",
    });
  });
});
