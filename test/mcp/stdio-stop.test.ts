// Stopping the built `stratum-mcp` on stdio with SIGTERM while a call runs
// (docs/reference/runtime.md §21.1): no grace period over stdio, the running work is stopped at once, but every call still
// gets an answer saying it was stopped before the process ends by the signal. Before, the server
// closed at once and such a call got no answer at all.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandbox } from "../hostile/mcp-support";
import { DRAFT_GATE_SPEC } from "./support/gate-spec";
import { PROTOCOL_VERSION, RawSession, type RpcMessage, toolContent } from "./support/raw-session";

const AGENT = `#!/bin/sh
cat > /dev/null
touch "$AGENT_STARTED"
sleep 60
`;

/** Bounds with room for a loaded machine: the agent's SIGTERM-to-SIGKILL 5 s, the 2 s answer wait. */
const EXIT_WITHIN_MS = 15_000;

let box: ReturnType<typeof sandbox> | undefined;
let session: RawSession | undefined;

afterEach(async () => {
  await session?.kill();
  session = undefined;
  box?.dispose();
  box = undefined;
});

describe("SIGTERM while a call runs on stratum-mcp over stdio", () => {
  it("answers a running stratum_agent_run as cancelled, then ends by the signal", async () => {
    box = sandbox("stratum-stdio-stop-");
    const agent = join(box.root, "agent.sh");
    writeFileSync(agent, AGENT, { mode: 0o755 });
    const started = join(box.root, "agent-started");
    const s = new RawSession(box, {
      env: { STRATUM_AGENT_COMMAND: agent, STRATUM_AGENT_ENV: "AGENT_STARTED", AGENT_STARTED: started },
    });
    session = s;
    await s.initialize();
    s.send({
      id: "run",
      method: "tools/call",
      params: { name: "stratum_agent_run", arguments: { prompt: "p" } },
    });
    await s.until(() => existsSync(started), "the agent to start");
    const signalled = Date.now();
    s.signal("SIGTERM");
    expect(await s.exited).toBeNull();
    expect(Date.now() - signalled).toBeLessThan(EXIT_WITHIN_MS);
    const answer = s.answers("run")[0];
    expect(answer, "an answer before the exit").toBeDefined();
    expect(toolContent(answer as RpcMessage)).toMatchObject({
      status: "error",
      error_type: "agent_cancelled",
    });
  }, 60_000);

  it("answers a request nothing could stop (a form the person never answers) with an error", async () => {
    box = sandbox("stratum-stdio-stop-");
    const s = new RawSession(box);
    session = s;
    await s.request("init", "initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: "raw-session", version: "0.0.0" },
    });
    s.send({ method: "notifications/initialized" });
    const call = async (id: string, name: string, args: Record<string, unknown>) =>
      toolContent(await s.request(id, "tools/call", { name, arguments: args }));
    const flowId = (
      await call("plan", "stratum_plan", { spec: DRAFT_GATE_SPEC, flow: "publish", inputs: {} })
    ).flow_id;
    const gate = await call("done", "stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { t: 1 },
    });
    expect(gate.status).toBe("await_gate");
    s.send({
      id: "ask",
      method: "tools/call",
      params: { name: "stratum_gate_ask", arguments: { flow_id: flowId, step_id: "review" } },
    });
    await s.next((m) => m.method === "elicitation/create");
    const signalled = Date.now();
    s.signal("SIGTERM");
    expect(await s.exited).toBeNull();
    expect(Date.now() - signalled).toBeLessThan(EXIT_WITHIN_MS);
    expect(s.answers("ask")[0]?.error).toEqual({
      code: -32000,
      message: "Cancelled: the server is stopping and this request had not finished",
    });
  }, 60_000);
});
