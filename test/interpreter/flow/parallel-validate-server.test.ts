// The stratumc extensions of parallel_dispatch judging on the server path (docs/reference/runtime.md §23.3):
// poll and advance apply the member contract to completed tasks and evaluate validate, as
// stratum_parallel_done does.
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine, type EngineApi } from "../../../interpreter/engine/create-api";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { parseJson } from "../../../stdlib/values/json";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { plain, planOk } from "./api-fixtures";

/** The plain form of a tool response, as an object. */
function obj(r: Parameters<typeof plain>[0]): Record<string, unknown> {
  return plain(r) as Record<string, unknown>;
}

/** Each task answers the JSON text given for its id. */
function engine(answers: Record<string, string>): EngineApi {
  const runner = {
    async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
      await new Promise((r) => setImmediate(r)); // the answer comes later, but no time passes
      return { ok: true, result: parseJson(answers[request.taskId] ?? "{}"), tokens: 1 };
    },
  };
  return createEngine({
    store: new MemoryStore(),
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: "/work/project",
    files: () => null,
    workspace: nodeWorkspace,
    verifyEdits: true,
    parallelRunner: runner,
    parallelTimer: () => () => undefined,
  });
}

function spec(lines: string): string {
  return `version: "0.3"
contracts:
  Report:
    tests_added: {type: integer}
flows:
  main:
    input:
      tasks: {type: array}
    steps:
      - id: execute
        type: parallel_dispatch
        source: "$.input.tasks"
        agent: codex
        isolation: none
        intent_template: "Do {task.id}"
        member_contract: Report
${lines}      - id: last
        intent: "Last"
        depends_on: [execute]
`;
}

const TWO = `{"tasks": [{"id": "t1"}, {"id": "t2"}]}`;

async function settledPoll(api: EngineApi, specText: string) {
  const plan = await planOk(api, specText, "main", TWO);
  const id = String(plan.flow_id);
  expect(plan.status).toBe("parallel_dispatch");
  expect(obj(await api.parallelStart({ flow_id: id, step_id: "execute" }))).toMatchObject({
    status: "started",
  });
  await api.parallelSettled();
  return { id, poll: obj(await api.parallelPoll({ flow_id: id, step_id: "execute" })) };
}

describe("server path", () => {
  it("poll: a member-contract violation fails the task and, under require all, the step", async () => {
    const api = engine({ t1: `{"tests_added": 1}`, t2: `{"tests_added": "x"}` });
    const { poll } = await settledPoll(api, spec(""));
    expect(poll).toMatchObject({ require_satisfied: false, can_advance: false });
    const outcome = poll.outcome as Record<string, unknown>;
    expect(outcome.status).toBe("ensure_failed");
    expect((outcome.violations as string[])[1]).toMatch(/^task 't2' contract: contract violation: /);
  });

  it("poll: validate decides with require 0; advance evaluates it too", async () => {
    const api = engine({ t1: `{"tests_added": 1}`, t2: `{"tests_added": 2}` });
    const failing = await settledPoll(
      api,
      spec('        require: 0\n        validate: "len(results) > 2"\n'),
    );
    expect(failing.poll.outcome).toMatchObject({
      status: "ensure_failed",
      violations: ["validate 'len(results) > 2' failed"],
    });
    const passing = await settledPoll(
      api,
      spec(
        '        require: 0\n        defer_advance: true\n        validate: "sum(r.tests_added for r in results) == 3"\n',
      ),
    );
    expect(passing.poll.outcome).toMatchObject({ status: "awaiting_consumer_advance" });
    const advanced = obj(
      await api.parallelAdvance({ flow_id: passing.id, step_id: "execute", merge_status: "clean" }),
    );
    expect(advanced).toMatchObject({ status: "execute_step", step_id: "last" });
  });
});
