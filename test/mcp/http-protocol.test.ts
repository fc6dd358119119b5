// The parts of the current protocol that run the other way or out of band, over the built
// `stratum-mcp --http` with the SDK's Streamable HTTP client (docs/guides/mcp-server-http.md): a
// gate the person answers through elicitation (the server's request rides the call's own stream),
// stratum_fuzz's progress with a token and its cancellation (a notifications/cancelled POST stops
// the worker thread), and a subscription to a flow told of step_done by its own session and by
// another session of the same server.
import { readdirSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CallToolResultSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tinySpec } from "../hostile/mcp-support";
import { DRAFT_GATE_SPEC } from "./support/gate-spec";
import { type RunningHttpServer, startHttpServer } from "./support/http-server";
import { resourceUpdates } from "./support/resource-updates";
import { tempDir, unexpectedStderr } from "./support/server";
import { fewestThreads } from "./support/threads";

type Plain = Record<string, unknown>;

async function call(client: Client, name: string, args: Plain): Promise<Plain> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBe(false);
  return result.structuredContent as Plain;
}

async function until(done: () => boolean, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Two steps, for a flow that changes twice. */
const TWO_SPEC = `version: "0.2"
contracts:
  Out:
    n: { type: integer }
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Out
flows:
  two:
    input: {}
    steps:
      - id: first
        function: work
        inputs: {}
      - id: second
        function: work
        inputs: {}
`;

describe("stratum-mcp --http: elicitation, progress, cancellation, subscriptions", () => {
  const home = tempDir("stratum-mcp-http-protocol-");
  let server: RunningHttpServer;

  beforeAll(async () => {
    server = await startHttpServer({ cwd: home.path, home: home.path });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    home.dispose();
  });

  /** A session whose client declares form elicitation and answers each question with `answer`. */
  async function eliciting(
    answer: (params: ElicitRequest["params"]) => ElicitResult,
  ): Promise<{ client: Client; asked: ElicitRequest["params"][] }> {
    const asked: ElicitRequest["params"][] = [];
    const client = await server.connect(undefined, {
      capabilities: { elicitation: {} },
      prepare: (c) =>
        c.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params);
          return answer(request.params);
        }),
    });
    return { client, asked };
  }

  async function atGate(client: Client): Promise<string> {
    const planned = await call(client, "stratum_plan", {
      spec: DRAFT_GATE_SPEC,
      flow: "publish",
      inputs: {},
    });
    const flowId = String(planned.flow_id);
    const gate = await call(client, "stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { text: "The draft" },
    });
    expect(gate).toMatchObject({ status: "await_gate", step_id: "review" });
    expect(gate.gate_hint).toMatch(/stratum_gate_ask/);
    return flowId;
  }

  it("asks the person through elicitation; accept completes the flow with resolved_by human", async () => {
    const { client, asked } = await eliciting(() => ({
      action: "accept",
      content: { outcome: "approve", note: "Reads well" },
    }));
    const flowId = await atGate(client);
    const answer = await call(client, "stratum_gate_ask", { flow_id: flowId, step_id: "review" });
    expect(answer).toMatchObject({ status: "complete", flow_id: flowId });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain("Gate 'review' of flow 'publish'");
    expect(asked[0]?.message).toContain(`Result of step 'draft' under review:\n{"text": "The draft"}`);
    // Another session reads the same store: the person's decision is in the audit.
    const other = await server.connect();
    const audit = await call(other, "stratum_audit", { flow_id: flowId });
    expect((audit.trace as Plain[]).at(-1)).toMatchObject({
      type: "gate",
      step_id: "review",
      outcome: "approve",
      rationale: "Reads well",
      resolved_by: "human",
    });
  });

  it("leaves the gate pending when the person declines", async () => {
    const { client, asked } = await eliciting(() => ({ action: "decline" }));
    const flowId = await atGate(client);
    expect(await call(client, "stratum_gate_ask", { flow_id: flowId, step_id: "review" })).toMatchObject({
      status: "gate_pending",
      flow_id: flowId,
      step_id: "review",
      action: "decline",
    });
    expect(asked).toHaveLength(1);
    expect(await call(client, "stratum_resume", { flow_id: flowId })).toMatchObject({
      status: "await_gate",
      step_id: "review",
    });
  });

  it("answers stratum_gate_ask with elicitation_unsupported in a session whose client cannot elicit", async () => {
    const client = await server.connect();
    const flowId = String(
      (await call(client, "stratum_plan", { spec: DRAFT_GATE_SPEC, flow: "publish", inputs: {} })).flow_id,
    );
    await call(client, "stratum_step_done", { flow_id: flowId, step_id: "draft", result: { text: "x" } });
    expect(await call(client, "stratum_gate_ask", { flow_id: flowId, step_id: "review" })).toMatchObject({
      status: "error",
      error_type: "elicitation_unsupported",
    });
  });

  it("sends stratum_fuzz's progress on the call's stream, rising to the run budget", async () => {
    const client = await server.connect();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const runs = 300;
    const result = await client.callTool(
      { name: "stratum_fuzz", arguments: { spec: tinySpec(), runs, time_budget_ms: 30_000 } },
      CallToolResultSchema,
      { onprogress: (p) => seen.push(p), timeout: 60_000 },
    );
    expect(result.structuredContent).toMatchObject({ status: "fuzzed", runs });
    // The first report (checking the spec) and at least one count of runs; the client may miss a
    // last report that arrives with the answer (progress-e2e.test.ts says why).
    expect(seen[0]).toMatchObject({ progress: 0, message: "checking the spec" });
    const counted = seen.slice(1);
    expect(counted.length).toBeGreaterThanOrEqual(1);
    for (const [i, p] of counted.entries()) {
      expect(p.total).toBe(runs);
      expect(p.progress).toBeGreaterThan(i === 0 ? 0 : (counted[i - 1]?.progress as number));
      expect(p.progress).toBeLessThanOrEqual(runs);
    }
  }, 90_000);

  it("stops the fuzz worker when the client cancels: the thread gone, no answer, the server goes on", async () => {
    const client = await server.connect();
    const threads = (): number => readdirSync(`/proc/${server.child.pid}/task`).length;
    // A call first, so that the threads the server starts once are there before counting.
    await call(client, "stratum_validate", { spec: tinySpec() });
    // The fewest threads over a moment: a thread the runtime starts and ends by itself (the
    // platform's, a libuv one) must not count as the fuzz worker's, nor hide its end.
    const baseline = await fewestThreads(() => threads());
    const cancel = new AbortController();
    const seen: number[] = [];
    const outcome = client
      .callTool(
        { name: "stratum_fuzz", arguments: { spec: tinySpec(), runs: 10_000, time_budget_ms: 60_000 } },
        CallToolResultSchema,
        { signal: cancel.signal, onprogress: (p) => seen.push(p.progress), timeout: 120_000 },
      )
      .then(
        () => "answered",
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
    await until(() => seen.some((p) => p > 0), "fuzzing progress", 30_000);
    await until(() => threads() > baseline, "the fuzz worker's thread", 10_000);
    const cancelledAt = Date.now();
    cancel.abort("enough");
    expect(await outcome).toMatch(/enough|abort/i);
    await until(() => threads() <= baseline, "the fuzz worker's thread to end", 10_000);
    console.log(`stratum_fuzz over HTTP: cancel -> worker thread gone in ${Date.now() - cancelledAt} ms`);
    const after = seen.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toHaveLength(after);
    const again = await client.callTool(
      { name: "stratum_fuzz", arguments: { spec: tinySpec(), runs: 20, time_budget_ms: 30_000 } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    expect(again.structuredContent).toMatchObject({ status: "fuzzed", runs: 20 });
  }, 90_000);

  it("tells a subscribed session of step_done by itself and by another session", async () => {
    const client = await server.connect();
    const heard = resourceUpdates({ client });
    const flowId = String(
      (await call(client, "stratum_plan", { spec: TWO_SPEC, flow: "two", inputs: {} })).flow_id,
    );
    const uri = `stratum://flows/${flowId}`;
    await client.subscribeResource({ uri });
    const own = heard.next(10_000);
    await call(client, "stratum_step_done", { flow_id: flowId, step_id: "first", result: { n: 1 } });
    expect(await own).toBe(uri);

    const other = await server.connect();
    const fromOther = heard.next(10_000);
    await call(other, "stratum_step_done", { flow_id: flowId, step_id: "second", result: { n: 2 } });
    expect(await fromOther).toBe(uri);
    const read = await client.readResource({ uri });
    const body = JSON.parse((read.contents[0] as { text: string }).text) as { flow: Plain };
    expect(body.flow.status).toBe("complete");

    await client.unsubscribeResource({ uri });
    const count = heard.uris.length;
    await call(other, "stratum_audit", { flow_id: flowId });
    await new Promise((r) => setTimeout(r, 1500));
    expect(heard.uris).toHaveLength(count);
  }, 60_000);

  it("wrote nothing unexpected: no standard output, only the start lines on standard error", () => {
    expect(server.stdout()).toBe("");
    expect(unexpectedStderr(server.stderr()).split("\n").filter(Boolean)).toHaveLength(2);
  });
});
