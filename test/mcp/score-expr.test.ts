// A scored iteration loop through the built stratum-mcp over stdio (docs/reference/runtime.md §25.2):
// what an agent sees from plan to completion, and the static refusal of a bool score.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

const SPEC = `version: "0.2"
contracts:
  Draft:
    text: {type: string}
    quality: {type: number}
flows:
  main:
    input: {}
    steps:
      - id: draft
        intent: Write the draft
        output_contract: Draft
        max_iterations: 5
        score_expr: "result.quality"
        exit_criterion: "best_score >= 0.9 or iteration >= 3"
      - id: publish
        intent: Publish the best draft
        inputs: {text: "$.steps.draft.output.text"}
`;

describe("score_expr through stratum-mcp", () => {
  const home = tempDir("stratum-mcp-score-");
  let server: RunningServer;
  let client: Client;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
    client = server.client;
  });

  afterAll(async () => {
    const code = await server.closeInput();
    home.dispose();
    expect(code).toBe(0);
    expect(unexpectedStderr(server.stderr())).toBe("");
  });

  async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await callTool(client, name, args, problems);
    return wireToPlain(answer.response) as Record<string, unknown>;
  }

  it("keeps the best draft, ends at iteration 3 and hands the best draft to the next step", async () => {
    const plan = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} });
    expect(plan.status).toBe("execute_step");
    const flowId = plan.flow_id as string;
    const ids = { flow_id: flowId, step_id: "draft" };
    await call("stratum_iteration_start", ids);
    await call("stratum_iteration_report", { ...ids, result: { text: "one", quality: 0.4 } });
    await call("stratum_iteration_report", { ...ids, result: { text: "two", quality: 0.8 } });
    const exit = await call("stratum_iteration_report", { ...ids, result: { text: "three", quality: 0.5 } });
    expect(exit).toMatchObject({
      status: "iteration_exit",
      outcome: "exit_success",
      final_result: { text: "two", quality: 0.8 },
      best_score: 0.8,
      best_iteration: 2,
    });
    const next = await call("stratum_step_done", { ...ids, result: { text: "three", quality: 0.5 } });
    expect(next).toMatchObject({ status: "execute_step", step_id: "publish", inputs: { text: "two" } });
    const audit = await call("stratum_audit", { flow_id: flowId });
    const history = (audit.iterations as Record<string, { score: number }[]>).draft ?? [];
    expect(history.map((e) => e.score)).toEqual([0.4, 0.8, 0.5]);
    expect(problems).toEqual([]);
  });

  it("refuses a score_expr that gives a bool when the spec is planned, with its position", async () => {
    const spec = SPEC.replace('score_expr: "result.quality"', 'score_expr: "result.quality > 0.5"');
    const plan = await call("stratum_plan", { spec, flow: "main", inputs: {} });
    expect(plan).toMatchObject({
      status: "error",
      error_type: "ir_semantic_error",
      code: "EXPR-SCORE-NOT-NUMBER",
      path: "flows.main.steps.draft.score_expr",
      line: 14,
    });
  });
});
