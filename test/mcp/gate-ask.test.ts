// stratum_gate_ask against the built server with the SDK's Client over stdio: the person answers a
// gate through elicitation (docs/guides/mcp-server-gates.md). The form shows the gate's allowed
// outcomes and the result under review; accept resolves it with resolved_by human, decline leaves it
// pending, a client without elicitation is told at once, STRATUM_GATES=human refuses
// stratum_gate_resolve, and a person who never answers holds neither the server nor the gate.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ElicitingServer, startElicitingServer } from "./support/elicit-client";
import { MCP_BIN, tempDir, unexpectedStderr } from "./support/server";

const SPEC = `version: "0.2"
functions:
  approval:
    mode: gate
    intent: "Approve the draft for publication"
    timeout: 3600
flows:
  publish:
    input:
      topic: { type: string }
    max_rounds: 1
    steps:
      - id: draft
        intent: "Draft a post about the topic"
        inputs:
          topic: "$.input.topic"
      - id: review
        function: approval
        depends_on: [draft]
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;

type Answer = Record<string, unknown>;

async function call(server: ElicitingServer, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await server.client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBe(false);
  return result.structuredContent as Answer;
}

/** A flow of SPEC waiting at its gate `review`, the draft reported as `text`. */
async function atGate(
  server: ElicitingServer,
  text = "Hello, world",
): Promise<{ flowId: string; gate: Answer }> {
  const planned = await call(server, "stratum_plan", { spec: SPEC, flow: "publish", inputs: { topic: "t" } });
  const flowId = planned.flow_id as string;
  const gate = await call(server, "stratum_step_done", {
    flow_id: flowId,
    step_id: "draft",
    result: { text },
  });
  expect(gate.status).toBe("await_gate");
  return { flowId, gate };
}

const accept = (content: Record<string, string>) => (): Promise<ElicitResult> =>
  Promise.resolve({ action: "accept", content });

describe("stratum_gate_ask with a client that can elicit", () => {
  const home = tempDir("stratum-gate-ask-");
  let server: ElicitingServer;

  beforeAll(async () => {
    server = await startElicitingServer({ cwd: home.path, home: home.path });
  });

  afterAll(async () => {
    expect(await server.close()).toBe(0);
    expect(unexpectedStderr(server.stderr())).toBe("");
    home.dispose();
  });

  it("tells the agent in the await_gate payload to ask the person", async () => {
    const { gate } = await atGate(server);
    expect(gate.gate_hint).toMatch(/stratum_gate_ask/);
    // The reference's keys are all there, unchanged, before the hint.
    expect(Object.keys(gate).slice(0, -1)).toEqual([
      "status",
      "flow_id",
      "step_number",
      "total_steps",
      "step_id",
      "step_mode",
      "function",
      "agent",
      "on_approve",
      "on_revise",
      "on_kill",
      "timeout",
    ]);
  });

  it("asks with the allowed outcomes and the result under review; accept completes the flow as human", async () => {
    const { flowId } = await atGate(server, "The draft under review");
    server.answer = accept({ outcome: "approve", note: "Reads well" });
    const before = server.asked.length;
    const answer = await call(server, "stratum_gate_ask", {
      flow_id: flowId,
      step_id: "review",
      message: "Please check the tone",
    });
    expect(answer.status).toBe("complete");
    const asked = server.asked[before];
    expect(asked?.mode).toBe("form");
    expect(asked?.message).toContain("Gate 'review' of flow 'publish'");
    expect(asked?.message).toContain("It approves: Approve the draft for publication");
    expect(asked?.message).toContain("The agent says: Please check the tone");
    expect(asked?.message).toContain(
      `Result of step 'draft' under review:\n{"text": "The draft under review"}`,
    );
    const schema = asked?.mode === "form" ? asked.requestedSchema : undefined;
    expect(schema?.required).toEqual(["outcome"]);
    expect(schema?.properties.outcome).toMatchObject({ type: "string", enum: ["approve", "revise", "kill"] });
    expect(schema?.properties.note).toMatchObject({ type: "string", maxLength: 4000 });

    const audit = await call(server, "stratum_audit", { flow_id: flowId });
    const trace = audit.trace as Answer[];
    expect(trace.at(-1)).toMatchObject({
      type: "gate",
      step_id: "review",
      outcome: "approve",
      rationale: "Reads well",
      resolved_by: "human",
    });
  });

  it("leaves the gate pending when the person declines or dismisses the question", async () => {
    const { flowId } = await atGate(server);
    for (const action of ["decline", "cancel"] as const) {
      server.answer = () => Promise.resolve({ action });
      const answer = await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" });
      expect(answer).toMatchObject({ status: "gate_pending", flow_id: flowId, step_id: "review", action });
    }
    const resumed = await call(server, "stratum_resume", { flow_id: flowId });
    expect(resumed).toMatchObject({ status: "await_gate", step_id: "review" });
    const audit = await call(server, "stratum_audit", { flow_id: flowId });
    expect((audit.trace as Answer[]).filter((r) => r.type === "gate")).toEqual([]);
  });

  it("offers revise only while a round is left, and routes a revise back to the draft", async () => {
    const { flowId } = await atGate(server);
    server.answer = accept({ outcome: "revise", note: "Shorter" });
    const revised = await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" });
    expect(revised).toMatchObject({ status: "execute_step", step_id: "draft" });
    await call(server, "stratum_step_done", { flow_id: flowId, step_id: "draft", result: { text: "Short" } });
    server.answer = accept({ outcome: "kill" });
    const killed = await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" });
    expect(killed.status).toBe("killed");
    const asked = server.asked.at(-1);
    const schema = asked?.mode === "form" ? asked.requestedSchema : undefined;
    expect(schema?.properties.outcome).toMatchObject({ enum: ["approve", "kill"] });
  });

  it("answers stratum_gate_resolve's errors for a flow not at that gate, without asking", async () => {
    const { flowId } = await atGate(server);
    const before = server.asked.length;
    expect(await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "draft" })).toEqual({
      status: "error",
      error_type: "wrong_step",
      message: "Expected gate step 'review', got 'draft'",
    });
    expect(await call(server, "stratum_gate_ask", { flow_id: "nope", step_id: "review" })).toMatchObject({
      status: "error",
      error_type: "flow_not_found",
    });
    const planned = await call(server, "stratum_plan", {
      spec: SPEC,
      flow: "publish",
      inputs: { topic: "t" },
    });
    expect(
      await call(server, "stratum_gate_ask", { flow_id: planned.flow_id, step_id: "draft" }),
    ).toMatchObject({ status: "error", error_type: "not_a_gate_step" });
    expect(server.asked.length).toBe(before);
  });

  it("keeps answering other calls while the person reads, and refuses an answer to a gate that changed", async () => {
    const { flowId } = await atGate(server);
    let release: () => void = () => undefined;
    const reading = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.answer = async () => {
      await reading;
      return { action: "accept", content: { outcome: "approve" } };
    };
    const asking = call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" });
    await vitestUntil(
      () => server.asked.length > 0 && server.asked.at(-1)?.message.includes(flowId) === true,
    );
    // Meanwhile the agent revises and redoes the draft: the flow is at the same gate, but on new work.
    await call(server, "stratum_gate_resolve", {
      flow_id: flowId,
      step_id: "review",
      outcome: "revise",
      rationale: "agent",
      resolved_by: "agent",
    });
    await call(server, "stratum_step_done", { flow_id: flowId, step_id: "draft", result: { text: "New" } });
    release();
    const answer = await asking;
    expect(answer).toMatchObject({ status: "error", error_type: "gate_changed" });
    const resumed = await call(server, "stratum_resume", { flow_id: flowId });
    expect(resumed).toMatchObject({ status: "await_gate", step_id: "review" });
  });
});

async function vitestUntil(test: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the elicitation");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("stratum_gate_ask's time limit", () => {
  const home = tempDir("stratum-gate-ask-timeout-");
  let server: ElicitingServer;

  beforeAll(async () => {
    server = await startElicitingServer({
      cwd: home.path,
      home: home.path,
      env: { STRATUM_GATE_ASK_TIMEOUT: "1" },
    });
  });

  afterAll(async () => {
    expect(await server.close()).toBe(0);
    home.dispose();
  });

  it("ends a question nobody answers with gate_pending (timeout); the gate can be asked again", async () => {
    const { flowId } = await atGate(server);
    server.answer = () => new Promise<ElicitResult>(() => undefined);
    const answer = await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" });
    expect(answer).toMatchObject({ status: "gate_pending", action: "timeout" });
    server.answer = accept({ outcome: "approve" });
    expect((await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" })).status).toBe(
      "complete",
    );
  });
});

describe("a client without elicitation", () => {
  const home = tempDir("stratum-gate-ask-none-");
  let server: ElicitingServer;

  beforeAll(async () => {
    server = await startElicitingServer({ cwd: home.path, home: home.path, elicitation: false });
  });

  afterAll(async () => {
    expect(await server.close()).toBe(0);
    home.dispose();
  });

  it("gets elicitation_unsupported at once, and the reference's await_gate payload unchanged", async () => {
    const { flowId, gate } = await atGate(server);
    expect(gate.gate_hint).toBeUndefined();
    const answer = await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" });
    expect(answer).toMatchObject({ status: "error", error_type: "elicitation_unsupported" });
    expect(answer.message).toMatch(/stratum_gate_resolve/);
  });
});

describe("STRATUM_GATES=human", () => {
  const home = tempDir("stratum-gate-human-");
  let server: ElicitingServer;
  let plain: ElicitingServer;

  beforeAll(async () => {
    const env = { STRATUM_GATES: "human" };
    server = await startElicitingServer({ cwd: home.path, home: home.path, env });
    plain = await startElicitingServer({ cwd: home.path, home: home.path, env, elicitation: false });
  });

  afterAll(async () => {
    expect(await server.close()).toBe(0);
    expect(await plain.close()).toBe(0);
    home.dispose();
  });

  it("refuses stratum_gate_resolve, whoever the caller claims to be; stratum_gate_ask resolves the gate", async () => {
    const { flowId } = await atGate(server);
    const refused = await call(server, "stratum_gate_resolve", {
      flow_id: flowId,
      step_id: "review",
      outcome: "approve",
      rationale: "trust me",
      resolved_by: "human",
    });
    expect(refused).toMatchObject({ status: "error", error_type: "human_gate_required" });
    expect(refused.message).toMatch(/STRATUM_GATES=human.*stratum_gate_ask/);
    expect(await call(server, "stratum_resume", { flow_id: flowId })).toMatchObject({ status: "await_gate" });
    server.answer = accept({ outcome: "approve", note: "ok" });
    expect((await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" })).status).toBe(
      "complete",
    );
  });

  it("tells an agent whose client cannot elicit that a person resolves the gate outside the client", async () => {
    const { flowId, gate } = await atGate(plain);
    expect(gate.gate_hint).toMatch(/stratumc gate/);
    expect(await call(plain, "stratum_gate_ask", { flow_id: flowId, step_id: "review" })).toMatchObject({
      status: "error",
      error_type: "elicitation_unsupported",
    });
  });

  it("still kills an expired gate as system (stratum_check_timeouts is not refused)", async () => {
    const { flowId } = await atGate(server);
    expect(await call(server, "stratum_check_timeouts", { flow_id: flowId })).toMatchObject({
      status: "no_timeout",
    });
  });
});

describe("a STRATUM_GATES value the server does not know", () => {
  it("stops the server at start with a usage error naming the variable", () => {
    const home = tempDir("stratum-gate-bad-");
    try {
      writeFileSync(join(home.path, "stdin"), "");
      for (const [name, value] of [
        ["STRATUM_GATES", "humans"],
        ["STRATUM_GATE_ASK_TIMEOUT", "0"],
      ] as const) {
        const run = spawnSync(process.execPath, [MCP_BIN], {
          cwd: home.path,
          env: { ...process.env, STRATUM_HOME: home.path, [name]: value },
          input: "",
          encoding: "utf8",
          timeout: 30_000,
        });
        expect(run.status).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toContain(`stratum-mcp: ${name}="${value}" is not`);
      }
    } finally {
      home.dispose();
    }
  });
});
