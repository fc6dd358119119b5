// The engine observer (OTLP traces) over version 0.3 steps: attempts of decompose and parallel
// steps carry their step modes, and a rejected stratum_parallel_done names its violations.
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { makeObservedApi } from "../support/observed-api";
import { result } from "./api-fixtures";

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
        intent: "Break down"
        output_contract: TaskGraph
        agent: claude
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        intent_template: "Do {id}"
`;

describe("observed events of parallel flows", () => {
  it("name the step modes and the violations of a rejected aggregate", async () => {
    const o = makeObservedApi(new MemoryStore());
    const plan = await o.api.plan({ spec: SPEC, flow: "main", inputs: result("{}") });
    const id = String(plan.flow_id);
    await o.api.stepDone({ flow_id: id, step_id: "analyze", result: result(`{"tasks": [{"id": "t1"}]}`) });
    o.take();
    const tasks = (status: string) => result(`[{"task_id": "t1", "result": {}, "status": "${status}"}]`);
    await o.api.parallelDone({
      flow_id: id,
      step_id: "execute",
      task_results: tasks("failed"),
      merge_status: "clean",
    });
    expect(o.take()).toMatchObject([
      {
        type: "step_finished",
        step_id: "execute",
        step_mode: "parallel_dispatch",
        outcome: "rejected",
        failure: "ensure_failed",
        violations: ["require='all' not satisfied: 0 completed, 1 failed"],
      },
      { type: "step_dispatched", step_id: "execute", step_mode: "parallel_dispatch", attempt: 2 },
    ]);
    await o.api.parallelDone({
      flow_id: id,
      step_id: "execute",
      task_results: tasks("complete"),
      merge_status: "clean",
    });
    expect(o.take()).toMatchObject([
      {
        type: "step_finished",
        step_id: "execute",
        step_mode: "parallel_dispatch",
        outcome: "accepted",
        attempt: 2,
      },
      { type: "flow_finished", status: "complete" },
    ]);
  });
});
