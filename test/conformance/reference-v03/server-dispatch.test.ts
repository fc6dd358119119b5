// Port of the five tests of the reference's stratum-mcp/tests/test_parallel_server_dispatch.py
// (smartmemory/stratum, commit ecc1aa5) that need no fake executor, through the built `stratum-mcp` over stdio with the MCP SDK client. Same specs, calls and
// assertions. Adaptation: the reference also checks internals (`state.parallel_tasks == {}`, nothing
// in `_RUNNING_EXECUTORS`); over MCP the observable counterpart is that a later
// stratum_parallel_poll still finds the step not dispatched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Plain, ReferenceSession } from "./reference-session";

let session: ReferenceSession;

beforeAll(async () => {
  session = await ReferenceSession.start();
});

afterAll(async () => {
  expect(await session.close()).toEqual([]);
});

/** The decompose + parallel spec of the file, with this `isolation`. */
const specWithIsolation = (isolation: string) => `version: "0.3"
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
        isolation: ${isolation}
        require: all
        intent_template: "Do: {desc}"
        depends_on: [analyze]
`;

const SPEC_NONE = specWithIsolation("none");
const SPEC_BRANCH = specWithIsolation("branch");

const SPEC_INLINE_ONLY = `version: "0.3"
contracts:
  Ping:
    ok: {type: boolean}
functions:
  ping:
    mode: infer
    intent: "Ping"
    input: {}
    output: Ping
flows:
  main:
    input: {}
    steps:
      - id: only
        function: ping
        inputs: {}
`;

async function planFlow(spec: string): Promise<string> {
  const result = await session.call("stratum_plan", { spec, flow: "main", inputs: {} });
  if (typeof result.flow_id !== "string") throw new Error(`no flow_id: ${JSON.stringify(result)}`);
  return result.flow_id;
}

/** `_dispatch_to_parallel`: plan, then analyze reports t1..tn; the flow is at the parallel step. */
async function dispatchToParallel(spec: string, numTasks = 3): Promise<string> {
  const flowId = await planFlow(spec);
  const tasks = Array.from({ length: numTasks }, (_, k) => ({
    id: `t${k + 1}`,
    desc: `task ${k + 1}`,
    files_owned: [`f${k + 1}.py`],
    depends_on: [],
  }));
  const dispatched = await session.call("stratum_step_done", {
    flow_id: flowId,
    step_id: "analyze",
    result: { tasks },
  });
  expect(dispatched.status).toBe("parallel_dispatch");
  return flowId;
}

const start = (flow_id: string, step_id: string) =>
  session.call("stratum_parallel_start", { flow_id, step_id });
const poll = (flow_id: string, step_id: string) =>
  session.call("stratum_parallel_poll", { flow_id, step_id });
const advance = (flow_id: string, step_id: string, merge_status: string) =>
  session.call("stratum_parallel_advance", { flow_id, step_id, merge_status });

function expectNotDispatched(resp: Plain): void {
  expect(resp).toHaveProperty("error");
  const error = String(resp.error).toLowerCase();
  expect(error.includes("not dispatched") || error.includes("not started"), String(resp.error)).toBe(true);
}

describe("reference test_parallel_server_dispatch.py (ecc1aa5) over MCP", () => {
  it("test_start_rejects_isolation_branch", async () => {
    const flowId = await dispatchToParallel(SPEC_BRANCH, 2);
    const resp = await start(flowId, "execute");
    expect(resp).toHaveProperty("error");
    expect(String(resp.error)).toContain("T2-F5-BRANCH");
    // parallel_tasks stays empty: the step is still not dispatched.
    expectNotDispatched(await poll(flowId, "execute"));
  });

  it("test_start_rejects_when_step_not_parallel_dispatch", async () => {
    const flowId = await planFlow(SPEC_INLINE_ONLY);
    const resp = await start(flowId, "only");
    expect(resp).toHaveProperty("error");
  });

  it("test_poll_before_start_returns_error", async () => {
    const flowId = await dispatchToParallel(SPEC_NONE, 2);
    expectNotDispatched(await poll(flowId, "execute"));
  });

  it("test_advance_on_non_deferred_step_returns_advance_not_deferred", async () => {
    const flowId = await dispatchToParallel(SPEC_NONE, 2);
    const result = await advance(flowId, "execute", "clean");
    expect(result.error).toBe("advance_not_deferred");
  });

  it("test_advance_on_unknown_flow_returns_flow_not_found", async () => {
    const result = await advance("nonexistent-flow-xyz", "execute", "clean");
    expect(result.error).toBe("flow_not_found");
  });
});
