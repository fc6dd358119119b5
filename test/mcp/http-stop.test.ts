// Stopping the built `stratum-mcp --http` while a call runs (docs/guides/mcp-server-http.md,
// "Stopping"), through the SDK's Streamable HTTP client. The call is a `stratum_agent_run` whose
// agent (a shell script, STRATUM_AGENT_COMMAND) sleeps and then prints a large text: an answer far
// larger than a socket's buffer, so it is still being written when the call is over — the case the
// server used to cut by closing every connection at once. The server must answer the call in full,
// refuse new requests meanwhile (503), cancel what outlasts the grace period with an answer that
// says so, and end by the signal well before the client's own timeout.
import { existsSync, writeFileSync } from "node:fs";
import { type Agent, Agent as HttpAgent, request } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { DRAFT_GATE_SPEC } from "./support/gate-spec";
import { type RunningHttpServer, rawSession, sessionHeaders, startHttpServer } from "./support/http-server";
import { tempDir } from "./support/server";

type Plain = Record<string, unknown>;

/** The agent: `big <seconds>` sleeps then prints BIG_BYTES; `hang` sleeps for a minute. */
const AGENT = `#!/bin/sh
prompt=$(cat)
touch "$AGENT_STARTED"
case "$prompt" in
  big*) sleep \${prompt#big }; head -c ${600_000} /dev/zero | tr '\\0' 'x' ;;
  hang*) sleep 60 ;;
esac
`;
const BIG_BYTES = 600_000;
/** The client waits this long for an answer: the server must have answered and ended well before. */
const CLIENT_TIMEOUT_MS = 60_000;

let home: ReturnType<typeof tempDir> | undefined;
let server: RunningHttpServer | undefined;

afterEach(() => {
  if (server !== undefined && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGKILL");
  }
  server = undefined;
  home?.dispose();
  home = undefined;
});

async function start(
  env: Record<string, string> = {},
): Promise<{ server: RunningHttpServer; started: string }> {
  home = tempDir("stratum-mcp-http-stop-");
  const agent = join(home.path, "agent.sh");
  writeFileSync(agent, AGENT, { mode: 0o755 });
  const started = join(home.path, "agent-started");
  server = await startHttpServer({
    cwd: home.path,
    home: home.path,
    env: {
      STRATUM_AGENT_COMMAND: agent,
      STRATUM_AGENT_ENV: "AGENT_STARTED",
      AGENT_STARTED: started,
      STRATUM_MCP_TOKEN: "a-chosen-token-of-32-characters!",
      ...env,
    },
  });
  return { server, started };
}

function agentRun(client: Client, prompt: string): Promise<Plain> {
  return client
    .callTool({ name: "stratum_agent_run", arguments: { prompt } }, undefined, { timeout: CLIENT_TIMEOUT_MS })
    .then((result) => result.structuredContent as Plain);
}

async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A POST over one kept-alive connection of `agent`: its status and body. */
function keptAlivePost(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("SIGTERM while a call runs on stratum-mcp --http", () => {
  it("answers the call in full, refuses new requests meanwhile, then ends by the signal", async () => {
    const { server, started } = await start();
    const client = await server.connect();
    // A connection kept alive from before the stop: a request on it during the stop gets 503.
    const sessionId = await rawSession(server.url, server.token);
    const kept = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    const headers = sessionHeaders(server.token, sessionId);
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    expect((await keptAlivePost(kept, server.url, headers, ping)).status).toBe(200);

    const answer = agentRun(client, "big 3");
    answer.catch(() => undefined);
    await until(() => existsSync(started), "the agent to start");
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await keptAlivePost(kept, server.url, headers, ping);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Service Unavailable: the server is stopping" },
    });
    kept.destroy();

    const result = await answer;
    expect(String(result.text)).toBe("x".repeat(BIG_BYTES));
    expect(await server.exited).toEqual({ code: null, signal: "SIGTERM" });
    // Generous on a loaded machine; the point is that nobody waits for the client's timeout.
    expect(Date.now() - signalled).toBeLessThan(CLIENT_TIMEOUT_MS / 3);
  }, 90_000);

  it("cancels a call that outlasts the grace period: its answer says so, then the server ends", async () => {
    const { server, started } = await start({ STRATUM_MCP_STOP_GRACE: "1" });
    const client = await server.connect();
    const answer = agentRun(client, "hang");
    answer.catch(() => undefined);
    await until(() => existsSync(started), "the agent to start");
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const result = await answer;
    expect(result).toMatchObject({ status: "error", error_type: "agent_cancelled" });
    expect(String(result.message)).toMatch(/server is stopping/);
    expect(await server.exited).toEqual({ code: null, signal: "SIGTERM" });
    // The 1 s grace, then the agent's SIGTERM (SIGKILL 5 s later if it ignored it), with room.
    expect(Date.now() - signalled).toBeLessThan(CLIENT_TIMEOUT_MS / 3);
  }, 90_000);

  it("answers a call nothing could stop with an error saying it was cancelled", async () => {
    const { server } = await start({ STRATUM_MCP_STOP_GRACE: "1" });
    // A person who never answers the form: stratum_gate_ask waits on the client, no job to stop.
    const client = new Client(
      { name: "stratumc-http-stop", version: "0.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    let asked = false;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked = true;
      return new Promise(() => {});
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
      }),
    );
    const call = async (name: string, args: Plain): Promise<Plain> =>
      (await client.callTool({ name, arguments: args })).structuredContent as Plain;
    const flowId = (await call("stratum_plan", { spec: DRAFT_GATE_SPEC, flow: "publish", inputs: {} }))
      .flow_id;
    const gate = await call("stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { text: "t" },
    });
    expect(gate.status).toBe("await_gate");
    const answer = client.callTool(
      { name: "stratum_gate_ask", arguments: { flow_id: flowId, step_id: "review" } },
      undefined,
      { timeout: CLIENT_TIMEOUT_MS },
    );
    answer.catch(() => undefined);
    await until(() => asked, "the form to reach the client");
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const failure = await answer.then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(-32000);
    expect((failure as McpError).message).toMatch(
      /Cancelled: the server is stopping .* 1 s .*STRATUM_MCP_STOP_GRACE/,
    );
    expect(await server.exited).toEqual({ code: null, signal: "SIGTERM" });
    expect(Date.now() - signalled).toBeLessThan(CLIENT_TIMEOUT_MS / 3);
    await client.close();
  }, 90_000);
});
