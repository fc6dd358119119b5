// A hostile client answering stratum_gate_ask's elicitation over raw stdio lines (the built
// stratum-mcp): outcomes the gate does not allow now, wrong types, a huge note, extra and
// `__proto__` fields, no content, answers that are not elicitation results, a JSON-RPC error,
// answers for ids never asked and twice, results under review far past the message limit, and a
// call cancelled while the person reads. Every case leaves the gate pending with nothing recorded,
// leaks nothing, and the server keeps answering.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROTOCOL_VERSION, RawSession, type RpcMessage, toolContent } from "../mcp/support/raw-session";
import { leaks, type Sandbox, sandbox } from "./mcp-support";

const SPEC = `version: "0.2"
functions:
  approval:
    mode: gate
    timeout: 3600
flows:
  publish:
    input: {}
    max_rounds: 1
    steps:
      - id: draft
        intent: "Draft it"
        inputs: {}
      - id: review
        function: approval
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;

describe("stratum_gate_ask answered by a hostile client", () => {
  let box: Sandbox;
  let session: RawSession;
  let nextId = 1;

  const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const answer = await session.request(`c${nextId++}`, "tools/call", { name, arguments: args });
    return toolContent(answer);
  };

  /** A new flow at its gate after its one revise (max_rounds 1): revise is not allowed any more. */
  const atGate = async (result: Record<string, unknown> = { text: "x" }): Promise<string> => {
    const planned = await call("stratum_plan", { spec: SPEC, flow: "publish" });
    const flowId = planned.flow_id as string;
    await call("stratum_step_done", { flow_id: flowId, step_id: "draft", result: { text: "first" } });
    const revise = { flow_id: flowId, step_id: "review", outcome: "revise", rationale: "again" };
    await call("stratum_gate_resolve", { ...revise, resolved_by: "agent" });
    const gate = await call("stratum_step_done", { flow_id: flowId, step_id: "draft", result });
    expect(gate.status).toBe("await_gate");
    return flowId;
  };

  /** Calls stratum_gate_ask, answers its elicitation/create with `reply(id)`, returns the tool's answer. */
  const askAndReply = async (
    flowId: string,
    reply: (elicitationId: unknown) => string,
  ): Promise<{ answer: RpcMessage; asked: RpcMessage }> => {
    const callId = `ask${nextId++}`;
    const seen = session.messages.length;
    session.send({
      id: callId,
      method: "tools/call",
      params: { name: "stratum_gate_ask", arguments: { flow_id: flowId, step_id: "review" } },
    });
    await session.until(
      () => session.messages.slice(seen).some((m) => m.method === "elicitation/create"),
      "the elicitation",
    );
    const asked = session.messages.slice(seen).find((m) => m.method === "elicitation/create") as RpcMessage;
    session.writeLine(reply(asked.id));
    await session.until(() => session.answers(callId).length > 0, "the tool's answer");
    return { answer: session.answers(callId)[0] as RpcMessage, asked };
  };

  const result = (id: unknown, value: unknown): string =>
    JSON.stringify({ jsonrpc: "2.0", id, result: value });

  /** The flow is still at its gate and its trace has no gate record. */
  const stillPending = async (flowId: string): Promise<void> => {
    expect(await call("stratum_resume", { flow_id: flowId })).toMatchObject({
      status: "await_gate",
      step_id: "review",
    });
    const audit = await call("stratum_audit", { flow_id: flowId });
    expect((audit.trace as Record<string, unknown>[]).filter((r) => r.type === "gate")).toEqual([]);
  };

  beforeAll(async () => {
    box = sandbox("stratum-gate-ask-hostile-");
    session = new RawSession(box);
    await session.request("init", "initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { elicitation: {} },
      clientInfo: { name: "hostile", version: "0" },
    });
    session.send({ method: "notifications/initialized" });
  });

  afterAll(async () => {
    expect(await session.closeInput()).toBe(0);
    expect(session.stderr).toBe("");
    box.dispose();
  });

  it("refuses contents the form does not allow, names the problem briefly, and records nothing", async () => {
    const flowId = await atGate();
    const cases: readonly [Record<string, unknown> | undefined, RegExp][] = [
      [{ outcome: "revise" }, /outcome must be one of approve, kill, got "revise"/],
      [{ outcome: "APPROVE" }, /outcome must be one of approve, kill, got "APPROVE"/],
      [{ outcome: 1 }, /got number/],
      [{ outcome: ["approve"] }, /got object/],
      [{ outcome: "approve", note: 7 }, /note must be text, got number/],
      [{ outcome: "approve", note: "n".repeat(1_000_000) }, /note is 1000000 characters, more than 4000/],
      [{ outcome: "approve", resolved_by: "agent" }, /unknown fields \(1\)/],
      [undefined, /no content object/],
    ];
    for (const [content, message] of cases) {
      const { answer } = await askAndReply(flowId, (id) =>
        result(id, content === undefined ? { action: "accept" } : { action: "accept", content }),
      );
      const text = JSON.stringify(answer);
      expect(leaks(text), text).toEqual([]);
      expect(text.length, "the note is never echoed").toBeLessThan(2_000);
      expect(answer.result?.isError).toBe(false);
      const content2 = toolContent(answer);
      expect(content2.error_type, text).toBe("invalid_gate_answer");
      expect(content2.message).toMatch(message);
      expect(content2.message).toMatch(/the gate is still pending/);
    }
    await stillPending(flowId);
  });

  it("keeps the gate pending on answers that are not elicitation results, and on a client error", async () => {
    const flowId = await atGate();
    const replies: readonly ((id: unknown) => string)[] = [
      (id) => result(id, { action: "yes" }),
      (id) => result(id, { action: "accept", content: { outcome: { nested: true } } }),
      (id) => result(id, "accept"),
      (id) =>
        `{"jsonrpc": "2.0", "id": ${JSON.stringify(id)}, "result": {"action": "accept", "content": {"__proto__": {"outcome": "approve"}}}}`,
      (id) =>
        `{"jsonrpc": "2.0", "id": ${JSON.stringify(id)}, "result": {"action": "accept", "content": {"outcome": ${"[".repeat(5_000)}${"]".repeat(5_000)}}}}`,
      (id) => JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "no forms here" } }),
    ];
    for (const reply of replies) {
      const { answer } = await askAndReply(flowId, reply);
      const text = JSON.stringify(answer);
      expect(leaks(text), text).toEqual([]);
      const content = toolContent(answer);
      // Either the answer never reads as an elicitation result, or its content is refused.
      if (content.status === "error") expect(content.error_type, text).toBe("invalid_gate_answer");
      else expect(content, text).toMatchObject({ status: "gate_pending", action: "error" });
    }
    await stillPending(flowId);
  });

  it("ignores answers for ids it never asked and a second answer, then resolves on a valid one", async () => {
    const flowId = await atGate();
    session.writeLine(result(987654, { action: "accept", content: { outcome: "approve" } }));
    session.writeLine(result("never", { action: "accept", content: { outcome: "kill" } }));
    await stillPending(flowId);
    const { answer, asked } = await askAndReply(flowId, (id) =>
      result(id, { action: "accept", content: { outcome: "kill", note: "no" } }),
    );
    expect(toolContent(answer).status).toBe("killed");
    session.writeLine(result(asked.id, { action: "accept", content: { outcome: "approve" } }));
    expect((await session.request("p1", "ping")).result).toEqual({});
    const audit = await call("stratum_audit", { flow_id: flowId });
    const gates = (audit.trace as Record<string, unknown>[]).filter((r) => r.type === "gate");
    expect(gates).toEqual([
      expect.objectContaining({ outcome: "kill", resolved_by: "human", rationale: "no" }),
    ]);
  });

  it("shows a result far past the limit cut to the message limit", async () => {
    const flowId = await atGate({
      text: "y".repeat(400_000),
      more: Array.from({ length: 5_000 }, (_, i) => i),
    });
    const { asked } = await askAndReply(flowId, (id) => result(id, { action: "decline" }));
    const params = asked as RpcMessage & { params?: { message?: string } };
    const message = params.params?.message ?? "";
    expect(message.length).toBeLessThanOrEqual(8_000);
    expect(message).toMatch(/more characters not shown/);
    expect(message).toMatch(/Choose: approve \(the flow completes\), kill \(stop the flow\)\.$/);
    await stillPending(flowId);
  });

  it("stops asking when the client cancels the call: no answer to it, the elicitation cancelled, the gate pending", async () => {
    const flowId = await atGate();
    const seen = session.messages.length;
    session.send({
      id: "cancel-me",
      method: "tools/call",
      params: { name: "stratum_gate_ask", arguments: { flow_id: flowId, step_id: "review" } },
    });
    await session.until(
      () => session.messages.slice(seen).some((m) => m.method === "elicitation/create"),
      "the elicitation",
    );
    const asked = session.messages.slice(seen).find((m) => m.method === "elicitation/create") as RpcMessage;
    session.send({ method: "notifications/cancelled", params: { requestId: "cancel-me", reason: "user" } });
    const cancelled = await session.next(
      (m) =>
        m.method === "notifications/cancelled" &&
        JSON.stringify((m as { params?: { requestId?: unknown } }).params?.requestId) ===
          JSON.stringify(asked.id),
    );
    expect(cancelled).toBeDefined();
    // A late answer of the person changes nothing.
    session.writeLine(result(asked.id, { action: "accept", content: { outcome: "approve" } }));
    expect((await session.request("p2", "ping")).result).toEqual({});
    expect(session.answers("cancel-me")).toEqual([]);
    await stillPending(flowId);
  });
});
