// Run budgets through the engine (docs/reference/runtime.md §11.4) beyond the recorded scenarios
// (scenarios-0269/budget_*.json): a flow its budget stopped refuses every advancing call before
// anything changes, keeps its status over a restart, warns once about a model it cannot price, and
// server-side parallel tasks charge one dispatch, their tokens, seconds and dollars each.
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine } from "../../../interpreter/engine/create-api";
import { budgetWire } from "../../../interpreter/flow/audit";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { parseJson } from "../../../stdlib/values/json";
import { makeTestApi } from "../support/make-test-api";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { plain, planOk, result, stored } from "./api-fixtures";

const SPEC = (budget: string) => `version: "0.2"
contracts:
  Out:
    n: {type: integer}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
  review:
    mode: gate
flows:
  main:
    input: {}
    budget: ${budget}
    steps:
      - id: s1
        function: work
        inputs: {}
      - id: g
        function: review
        on_approve: null
        on_revise: s1
        on_kill: null
        depends_on: [s1]
      - id: s3
        function: work
        inputs: {}
        depends_on: [g]
`;

const usage = (json: string) => parseJson(json);

describe("a flow its budget stopped", () => {
  it("answers every advancing call with the payload, changes nothing, and stays stopped after a restart", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const id = String((await planOk(h.api, SPEC("{max_tokens: 50}"))).flow_id);
    const stop = await h.api.stepDone({
      flow_id: id,
      step_id: "s1",
      result: result('{"n": 1}'),
      usage: usage('{"tokens": 50}'),
    });
    expect(plain(stop)).toMatchObject({
      status: "budget_exhausted",
      flow_id: id,
      output: { n: 1 },
      budget_state: { caps: { max_tokens: 50 }, consumed: { tokens: 50, dispatches: 0 } },
    });
    const before = await stored(h.store, id);
    expect(before.terminal_status).toBe("budget_exhausted");
    expect(before.status).toBe("budget_exhausted");

    const again = await h.api.stepDone({ flow_id: id, step_id: "g", result: result('{"n": 2}') });
    expect(plain(again)).toEqual(plain(stop));
    const calls = [
      h.api.gateResolve({
        flow_id: id,
        step_id: "g",
        outcome: "approve",
        rationale: "",
        resolved_by: "human",
      }),
      h.api.skipStep({ flow_id: id, step_id: "g", reason: "x" }),
      h.api.parallelDone({ flow_id: id, step_id: "g", task_results: [], merge_status: "clean" }),
    ];
    for (const r of await Promise.all(calls)) expect(plain(r)).toMatchObject({ status: "budget_exhausted" });
    const after = await stored(h.store, id);
    expect(after.revision).toBe(before.revision);
    expect(after.records).toEqual(before.records);

    h.restart();
    expect(plain(await h.api.resume({ flow_id: id }))).toEqual({ status: "budget_exhausted", flow_id: id });
    expect(plain(await h.api.audit({ flow_id: id }))).toMatchObject({
      status: "budget_exhausted",
      steps_completed: 1,
    });
  });

  it("charges nothing to a flow without a budget, and nothing for a refused report", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const id = String((await planOk(h.api, SPEC("{max_tokens: 50}"))).flow_id);
    const stale = await h.api.stepDone({
      flow_id: id,
      step_id: "s3",
      result: result('{"n": 1}'),
      usage: usage('{"tokens": 999}'),
    });
    expect(plain(stale)).toMatchObject({ status: "error" });
    const gate = await h.api.stepDone({
      flow_id: id,
      step_id: "s1",
      result: result('{"n": 1}'),
      usage: usage('{"tokens": 10}'),
    });
    expect(plain(gate)).toMatchObject({ status: "await_gate" });
    const refused = await h.api.stepDone({
      flow_id: id,
      step_id: "g",
      result: result("{}"),
      usage: usage('{"tokens": 999}'),
    });
    expect(plain(refused)).toMatchObject({ error_type: "gate_step_requires_gate_resolve" });
    expect(plain(await h.api.audit({ flow_id: id }))).toMatchObject({
      budget_state: { consumed: { tokens: 10 } },
    });
  });

  it("names a model it cannot price once, and only when the flow has a usd cap", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const unknown = usage('{"input_tokens": 10, "output_tokens": 10, "model": "mystery/high"}');
    const tokensOnly = String((await planOk(h.api, SPEC("{max_tokens: 5000}"))).flow_id);
    await h.api.stepDone({ flow_id: tokensOnly, step_id: "s1", result: result('{"n": 1}'), usage: unknown });
    expect(h.loggedWarnings).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const id = String((await planOk(h.api, SPEC("{usd: 1}"))).flow_id);
      await h.api.stepDone({ flow_id: id, step_id: "s1", result: result('{"n": 1}'), usage: unknown });
    }
    expect(h.loggedWarnings).toEqual([
      "run budget: no price for model 'mystery'; the usd cap counts its cost as $0 (set STRATUM_MODEL_PRICING_JSON to add it)",
    ]);
    expect(h.loggedErrors).toEqual([]);
  });
});

/** A runner whose every task succeeds at once with the given usage. */
class CostlyRunner {
  readonly started: string[] = [];
  constructor(private readonly usage: { tokens: number; dollars: number }) {}
  async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
    this.started.push(request.taskId);
    await new Promise((r) => setImmediate(r));
    return { ok: true, result: parseJson(`{"done": "${request.taskId}"}`), ...this.usage };
  }
}

const PARALLEL = (budget: string) => `version: "0.3"
flows:
  main:
    input:
      tasks: {type: array}
    budget: ${budget}
    steps:
      - id: execute
        type: parallel_dispatch
        source: "$.input.tasks"
        intent_template: "Do {task.id}"
        max_concurrent: 1
      - id: last
        intent: "Last"
        depends_on: [execute]
`;

const TASKS = `{"tasks": [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}]}`;

async function runParallel(budget: string) {
  const store = new MemoryStore();
  const runner = new CostlyRunner({ tokens: 40, dollars: 0.25 });
  const api = createEngine({
    store,
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: "/work/project",
    files: () => null,
    workspace: nodeWorkspace,
    verifyEdits: true,
    parallelRunner: runner,
  });
  const id = String((await planOk(api, PARALLEL(budget), "main", TASKS)).flow_id);
  expect(plain(await api.parallelStart({ flow_id: id, step_id: "execute" }))).toMatchObject({
    status: "started",
  });
  await api.parallelSettled();
  const poll = await api.parallelPoll({ flow_id: id, step_id: "execute" });
  return { api, id, poll: plain(poll), state: await stored(store, id) };
}

describe("server-side parallel tasks", () => {
  it("charge one dispatch, their tokens and dollars each, once", async () => {
    const { poll, state } = await runParallel("{max_tokens: 100000}");
    expect(plain({ b: budgetWire(state.budget_state) })).toEqual({
      b: {
        caps: { ms: null, usd: null, max_agent_dispatches: null, max_tokens: 100000 },
        consumed: { wall_s: 0, dispatches: 3, tokens: 120, dollars: 0.75 },
      },
    });
    expect(poll).toMatchObject({ outcome: { status: "execute_step", step_id: "last" } });
  });

  it("stop the flow when a cap is reached: the poll answers budget_exhausted instead of the next step", async () => {
    const { api, id, poll, state } = await runParallel("{max_agent_dispatches: 2}");
    expect(state.terminal_status).toBe("budget_exhausted");
    expect(poll).toMatchObject({ outcome: { status: "budget_exhausted", flow_id: id } });
    // The third task never ran: the task that reached the cap cancelled the rest.
    expect(state.parallel_tasks.size).toBe(3);
    expect(plain({ t3: state.parallel_tasks.get("t3") ?? null })).toMatchObject({
      t3: { state: "cancelled" },
    });
    expect(plain(await api.resume({ flow_id: id }))).toEqual({ status: "budget_exhausted", flow_id: id });
  });
});
