// Run budgets through the built stratum-mcp over stdio (docs/reference/runtime.md §11.4): the
// `usage` argument of stratum_step_done priced by the server's table — with the
// STRATUM_MODEL_PRICING_JSON override the server reads at start — until the `usd` cap stops the
// flow, what a client sees after that, and a bad `usage` refused as invalid_arguments.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { dictFromRecord } from "../../stdlib/values/json";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

const SPEC = `version: "0.2"
contracts:
  Out:
    n: {type: integer}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
flows:
  main:
    input: {}
    budget: {usd: 0.02}
    steps:
      - id: s1
        function: work
        inputs: {}
      - id: s2
        function: work
        inputs: {}
        depends_on: [s1]
      - id: s3
        function: work
        inputs: {}
        depends_on: [s2]
`;

type Plain = Record<string, unknown>;

describe("stratum_step_done with usage, through the built server", () => {
  const home = tempDir("stratum-mcp-budget-");
  let server: RunningServer | undefined;
  const problems: string[] = [];

  afterEach(async () => {
    if (server !== undefined) expect(await server.closeInput()).toBe(0);
    server = undefined;
    expect(problems).toEqual([]);
  });
  afterAll(() => home.dispose());

  const call = async (name: string, args: Plain): Promise<Plain> =>
    wireToPlain((await callTool(server!.client, name, args, problems)).response) as Plain;

  it("prices token usage until the usd cap stops the flow", async () => {
    server = await startServer({
      cwd: home.path,
      home: home.path,
      env: { STRATUM_MODEL_PRICING_JSON: '{"house-model": {"input": 3, "output": 15}}' },
    });
    const plan = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} });
    const flow_id = plan.flow_id as string;
    const usage = { input_tokens: 1000, output_tokens: 1000, model: "house-model" };
    const done = (step_id: string, extra: Plain = { usage }) =>
      call("stratum_step_done", { flow_id, step_id, result: dictFromRecord({ n: 1 }), ...extra });

    expect(await done("s1")).toMatchObject({ status: "execute_step", step_id: "s2" });
    const stop = await done("s2");
    expect(stop).toEqual({
      status: "budget_exhausted",
      flow_id,
      output: { n: 1 },
      trace: [expect.objectContaining({ step_id: "s1" }), expect.objectContaining({ step_id: "s2" })],
      total_duration_ms: expect.any(Number),
      budget_state: {
        caps: { ms: null, usd: 0.02, max_agent_dispatches: null, max_tokens: null },
        consumed: { wall_s: 0, dispatches: 0, tokens: 4000, dollars: 0.036 },
      },
    });
    // A stopped flow takes no more results, and says so.
    expect(await done("s3", {})).toMatchObject({ status: "budget_exhausted", trace: stop.trace });
    expect(await call("stratum_resume", { flow_id })).toEqual({ status: "budget_exhausted", flow_id });
    expect(await call("stratum_audit", { flow_id })).toMatchObject({
      status: "budget_exhausted",
      steps_completed: 2,
    });
    expect(unexpectedStderr(server.stderr())).toBe("");
  });

  it("refuses a usage that is not an object, and takes null as none", async () => {
    server = await startServer({
      cwd: home.path,
      home: home.path,
      env: { STRATUM_MODEL_PRICING_JSON: "{oops" },
    });
    const plan = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} });
    const flow_id = plan.flow_id as string;
    const args = { flow_id, step_id: "s1", result: dictFromRecord({ n: 1 }) };
    const refused = await callTool(server.client, "stratum_step_done", { ...args, usage: [1, 2] }, problems);
    expect(wireToPlain(refused.response)).toEqual({
      status: "error",
      error_type: "invalid_arguments",
      message: "usage: expected object, got array",
    });
    expect(await call("stratum_step_done", { ...args, usage: null })).toMatchObject({
      status: "execute_step",
    });
    // The malformed pricing text is told once at start; the built-in table is used.
    expect(unexpectedStderr(server.stderr())).toContain("STRATUM_MODEL_PRICING_JSON is not valid JSON");
  });
});
