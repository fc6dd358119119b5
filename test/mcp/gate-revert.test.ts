// stratum_revert against gates a person decided, through the built stratum-mcp over stdio with the
// SDK's Client (docs/guides/mcp-server-gates.md): with STRATUM_GATES=human a revert to a checkpoint
// saved before a person's gate decision (an approve, a kill, a revise of a later round) is refused
// and the flow is left as it was, while a revert that undoes no such decision goes through; with
// STRATUM_GATES unset the revert goes through as the reference's does.
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ElicitingServer, startElicitingServer } from "./support/elicit-client";
import { tempDir, unexpectedStderr } from "./support/server";

/** A draft, a gate on it, a publish step, and a last gate that may send the work back to the draft. */
const SPEC = `version: "0.2"
functions:
  approval:
    mode: gate
    intent: "Approve it"
    timeout: 3600
flows:
  publish:
    input: {}
    max_rounds: 3
    steps:
      - id: draft
        intent: "Draft a post"
      - id: review
        function: approval
        depends_on: [draft]
        on_approve: post
        on_revise: draft
        on_kill: ~
      - id: post
        intent: "Publish the post"
        depends_on: [review]
      - id: final
        function: approval
        depends_on: [post]
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;

type Answer = Record<string, unknown>;

async function call(server: ElicitingServer, name: string, args: Answer): Promise<Answer> {
  const result = await server.client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBe(false);
  return result.structuredContent as Answer;
}

const says = (outcome: string) => (): Promise<ElicitResult> =>
  Promise.resolve({ action: "accept", content: { outcome, note: `the person says ${outcome}` } });

/** A new flow with checkpoint `start` saved at its first step, then the draft done: at gate `review`. */
async function atReview(server: ElicitingServer): Promise<string> {
  const planned = await call(server, "stratum_plan", { spec: SPEC, flow: "publish", inputs: {} });
  const flowId = String(planned.flow_id);
  expect(await call(server, "stratum_commit", { flow_id: flowId, label: "start" })).toMatchObject({
    status: "committed",
  });
  expect(
    await call(server, "stratum_step_done", { flow_id: flowId, step_id: "draft", result: { text: "v1" } }),
  ).toMatchObject({ status: "await_gate", step_id: "review" });
  return flowId;
}

async function ask(
  server: ElicitingServer,
  flowId: string,
  stepId: string,
  outcome: string,
): Promise<Answer> {
  server.answer = says(outcome);
  return call(server, "stratum_gate_ask", { flow_id: flowId, step_id: stepId });
}

describe("stratum_revert with STRATUM_GATES=human", () => {
  const home = tempDir("stratum-gate-revert-");
  let server: ElicitingServer;

  beforeAll(async () => {
    server = await startElicitingServer({ cwd: home.path, home: home.path, env: { STRATUM_GATES: "human" } });
  });
  afterAll(async () => {
    expect(await server.close()).toBe(0);
    expect(unexpectedStderr(server.stderr())).toBe("");
    home.dispose();
  });

  it("refuses a revert to before a person's approval, saying why and what to do; the flow stays", async () => {
    const flowId = await atReview(server);
    expect(await ask(server, flowId, "review", "approve")).toMatchObject({
      status: "execute_step",
      step_id: "post",
    });
    const refused = await call(server, "stratum_revert", { flow_id: flowId, label: "start" });
    expect(refused).toMatchObject({
      status: "error",
      error_type: "human_gate_revert_refused",
      gates: [{ step_id: "review", outcome: "approve", round: 0 }],
      allowed: [],
    });
    expect(refused.message).toMatch(/checkpoint 'start'.*gate 'review' \(approve\)/);
    expect(refused.message).toMatch(/STRATUM_GATES=human/);
    expect(refused.message).toMatch(/stratum_commit/);
    // Nothing changed: the flow is still past the gate, the person's decision in its trace.
    expect(await call(server, "stratum_resume", { flow_id: flowId })).toMatchObject({
      status: "execute_step",
      step_id: "post",
    });
    const audit = await call(server, "stratum_audit", { flow_id: flowId });
    expect((audit.trace as Answer[]).filter((r) => r.type === "gate")).toMatchObject([
      { step_id: "review", outcome: "approve", resolved_by: "human" },
    ]);
  });

  it("refuses a revert that would bring a flow the person killed back to life", async () => {
    const flowId = await atReview(server);
    expect((await ask(server, flowId, "review", "kill")).status).toBe("killed");
    expect(await call(server, "stratum_revert", { flow_id: flowId, label: "start" })).toMatchObject({
      status: "error",
      error_type: "human_gate_revert_refused",
      gates: [{ step_id: "review", outcome: "kill" }],
    });
    expect(await call(server, "stratum_audit", { flow_id: flowId })).toMatchObject({ status: "killed" });
  });

  it("refuses a revert past a later round's revise, and names the checkpoints it would allow", async () => {
    const flowId = await atReview(server);
    await ask(server, flowId, "review", "approve");
    // Saved after the first decision: reverting here keeps the approval.
    await call(server, "stratum_commit", { flow_id: flowId, label: "approved" });
    expect(
      await call(server, "stratum_step_done", { flow_id: flowId, step_id: "post", result: { url: "u" } }),
    ).toMatchObject({ status: "await_gate", step_id: "final" });
    expect(await ask(server, flowId, "final", "revise")).toMatchObject({
      status: "execute_step",
      step_id: "draft",
    });
    await call(server, "stratum_commit", { flow_id: flowId, label: "round2" });
    // Back to `approved` would skip the person's revise: the post would stand as if approved.
    const refused = await call(server, "stratum_revert", { flow_id: flowId, label: "approved" });
    expect(refused).toMatchObject({
      error_type: "human_gate_revert_refused",
      gates: [{ step_id: "final", outcome: "revise", round: 0 }],
      allowed: ["round2"],
    });
    expect(await call(server, "stratum_resume", { flow_id: flowId })).toMatchObject({ step_id: "draft" });
    // A checkpoint saved after every decision the person made is still the agent's to use.
    await call(server, "stratum_step_done", { flow_id: flowId, step_id: "draft", result: { text: "v2" } });
    expect(await call(server, "stratum_revert", { flow_id: flowId, label: "round2" })).toMatchObject({
      status: "execute_step",
      step_id: "draft",
      reverted_to: "round2",
    });
  });

  it("lets a revert through that undoes no decision of a person", async () => {
    const flowId = await atReview(server);
    expect(await call(server, "stratum_revert", { flow_id: flowId, label: "start" })).toMatchObject({
      status: "execute_step",
      step_id: "draft",
      reverted_to: "start",
    });
    const missing = await call(server, "stratum_revert", { flow_id: flowId, label: "nope" });
    expect(missing).toMatchObject({ error_type: "checkpoint_not_found", available: ["start"] });
  });
});

describe("stratum_revert with STRATUM_GATES unset", () => {
  const home = tempDir("stratum-gate-revert-any-");
  let server: ElicitingServer;

  beforeAll(async () => {
    server = await startElicitingServer({ cwd: home.path, home: home.path });
  });
  afterAll(async () => {
    expect(await server.close()).toBe(0);
    home.dispose();
  });

  it("restores a checkpoint saved before a person's approval, as the reference does", async () => {
    const flowId = await atReview(server);
    await ask(server, flowId, "review", "approve");
    expect(await call(server, "stratum_revert", { flow_id: flowId, label: "start" })).toMatchObject({
      status: "execute_step",
      step_id: "draft",
      reverted_to: "start",
    });
    const audit = await call(server, "stratum_audit", { flow_id: flowId });
    expect((audit.trace as Answer[]).filter((r) => r.type === "gate")).toEqual([]);
  });
});
