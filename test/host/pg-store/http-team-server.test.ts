// Two `stratum-mcp --http` servers on ONE PostgreSQL database (docs/guides/team.md): a team's
// agents reach either server and share the flows. Through the SDK's Streamable HTTP client and
// the built servers: a flow planned on A continues on B (step_done), its gate is approved on A,
// and B reports it complete; `stratumc query flow` (a third process) reads the same flow.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningHttpServer, startHttpServer } from "../../mcp/support/http-server";
import { tempDir } from "../../mcp/support/server";
import { CHAIN_SPEC, queryFlow, STEPS, usePostgres } from "./support";

const pg = usePostgres();

type Plain = Record<string, unknown>;

let url: string;
const homes: { dispose(): void }[] = [];
let a: RunningHttpServer;
let b: RunningHttpServer;

async function start(): Promise<RunningHttpServer> {
  const home = tempDir("stratum-pg-http-home-");
  homes.push(home);
  return startHttpServer({
    cwd: home.path,
    home: home.path,
    env: { STRATUM_STORE: url, STRATUM_MCP_TOKEN: "team-token-shared-by-both-servers" },
  });
}

beforeEach(async () => {
  url = pg().createDatabase("http");
  // One after the other: the first creates the schema.
  a = await start();
  b = await start();
}, 60_000);

afterEach(async () => {
  const exits = await Promise.all([a.stop(), b.stop()]);
  for (const home of homes.splice(0)) home.dispose();
  expect(exits).toEqual([
    { code: null, signal: "SIGTERM" },
    { code: null, signal: "SIGTERM" },
  ]);
}, 60_000);

async function call(client: Client, name: string, args: Plain): Promise<Plain> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(false);
  return result.structuredContent as Plain;
}

describe("two HTTP servers on one PostgreSQL store", () => {
  it("plan on A, step_done on B, the gate on A, complete on both", async () => {
    const onA = await a.connect();
    const onB = await b.connect();
    const planned = await call(onA, "stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} });
    expect(planned).toMatchObject({ status: "execute_step", step_id: "s1" });
    const flowId = String(planned.flow_id);
    let answer = planned;
    for (const step of STEPS) {
      answer = await call(onB, "stratum_step_done", { flow_id: flowId, step_id: step, result: { w: step } });
    }
    expect(answer).toMatchObject({ status: "await_gate", step_id: "approve" });
    const resolved = await call(onA, "stratum_gate_resolve", {
      flow_id: flowId,
      step_id: "approve",
      outcome: "approve",
      rationale: "reviewed by the team",
      resolved_by: "human",
    });
    expect(resolved).toMatchObject({ status: "complete" });
    expect(await call(onB, "stratum_audit", { flow_id: flowId })).toMatchObject({
      status: "complete",
      steps_completed: STEPS.length + 1,
    });
    expect(queryFlow(url, flowId)).toMatchObject({ flow_id: flowId });
    // A server given its token never prints it.
    expect(a.stderr() + b.stderr()).not.toContain("team-token");
  }, 60_000);
});
