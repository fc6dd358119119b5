// The built `stratum-mcp --http` through the SDK's Streamable HTTP client (docs/guides/mcp-server-http.md):
// the same tools as over stdio, a whole flow to its end, arguments that keep their kinds (a raw
// POST with `1.0`), sessions (each its own, ended by DELETE, capped, closed when idle),
// `stratumc serve --http`, the setting errors, SIGTERM, and the MCP Inspector's CLI listing the
// tools, resources and prompts over HTTP.
import { execFile } from "node:child_process";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE, REPO } from "../cli/run-cli";
import { CHAIN_SPEC, STEPS } from "../host/pg-store/support";
import {
  messagesOf,
  type RunningHttpServer,
  rawSession,
  sessionHeaders,
  startHttpServer,
} from "./support/http-server";
import { startServer, tempDir, unexpectedStderr } from "./support/server";

const run = promisify(execFile);
const INSPECTOR = join(REPO, "node_modules/@modelcontextprotocol/inspector/cli/build/cli.js");

type Plain = Record<string, unknown>;

async function call(client: Client, name: string, args: Plain): Promise<Plain> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(false);
  return result.structuredContent as Plain;
}

/** A flow whose second step takes the first step's float as its input. */
const FLOAT_SPEC = `version: "0.2"
contracts:
  Score:
    value: {type: number}
functions:
  score:
    mode: infer
    intent: "Score it"
    input: {}
    output: Score
  use:
    mode: infer
    intent: "Use it"
    input:
      x: {type: number}
    output: Score
flows:
  one:
    input: {}
    steps:
      - id: s
        function: score
        inputs: {}
      - id: t
        function: use
        inputs:
          x: "$.steps.s.output.value"
`;

describe("stratum-mcp --http", () => {
  const home = tempDir("stratum-mcp-http-");
  let server: RunningHttpServer;

  beforeAll(async () => {
    server = await startHttpServer({ cwd: home.path, home: home.path });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    home.dispose();
  });

  it("lists the same tools as the stdio server", async () => {
    const client = await server.connect();
    const overHttp = await client.listTools();
    const stdio = await startServer({ cwd: home.path, home: home.path });
    try {
      const overStdio = await stdio.client.listTools();
      expect(overHttp.tools).toEqual(overStdio.tools);
      expect(overHttp.tools.map((t) => t.name)).toContain("stratum_gate_resolve");
    } finally {
      await stdio.closeInput();
    }
  });

  it("runs a flow to its end: plan, step_done for each step, the gate approved, the audit complete", async () => {
    const client = await server.connect();
    const planned = await call(client, "stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} });
    expect(planned).toMatchObject({ status: "execute_step", step_id: "s1" });
    const flowId = String(planned.flow_id);
    let answer = planned;
    for (const step of STEPS) {
      expect(answer.step_id).toBe(step);
      answer = await call(client, "stratum_step_done", {
        flow_id: flowId,
        step_id: step,
        result: { w: step },
      });
    }
    expect(answer).toMatchObject({ status: "await_gate", step_id: "approve" });
    const resolved = await call(client, "stratum_gate_resolve", {
      flow_id: flowId,
      step_id: "approve",
      outcome: "approve",
      rationale: "looks right",
      resolved_by: "human",
    });
    expect(resolved).toMatchObject({ status: "complete", flow_id: flowId });
    // Another session (another client) sees the same store.
    const other = await server.connect();
    const audit = await call(other, "stratum_audit", { flow_id: flowId });
    expect(audit).toMatchObject({ flow_id: flowId, status: "complete", steps_completed: STEPS.length + 1 });
  });

  it("keeps a float argument a float (1.0 is not 1), as over stdio", async () => {
    const sessionId = await rawSession(server.url, server.token);
    const post = async (id: number, name: string, args: string): Promise<Plain> => {
      const response = await fetch(server.url, {
        method: "POST",
        headers: sessionHeaders(server.token, sessionId),
        body: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
      });
      const [message] = await messagesOf(response);
      return (message?.result ?? {}) as Plain;
    };
    const planned = await post(
      1,
      "stratum_plan",
      JSON.stringify({ spec: FLOAT_SPEC, flow: "one", inputs: {} }),
    );
    const flowId = String((planned.structuredContent as Plain).flow_id);
    const next = await post(
      2,
      "stratum_step_done",
      `{"flow_id":"${flowId}","step_id":"s","result":{"value": 1.0}}`,
    );
    const text = (next.content as { text: string }[])[0]?.text ?? "";
    expect(text).toContain('"x": 1.0');
  });

  it("ends a session on DELETE (its id then gets 404); an unknown session id gets 404", async () => {
    const sessionId = await rawSession(server.url, server.token);
    const ping = () =>
      fetch(server.url, {
        method: "POST",
        headers: sessionHeaders(server.token, sessionId),
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
    const alive = await ping();
    expect(alive.status).toBe(200);
    expect(await messagesOf(alive)).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    const deleted = await fetch(server.url, {
      method: "DELETE",
      headers: sessionHeaders(server.token, sessionId),
    });
    expect(deleted.status).toBe(200);
    const gone = await ping();
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32001, message: "Session not found" },
    });
  });

  it("answers a request that is not initialize without a session: 400", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: sessionHeaders(server.token),
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/initialize/) },
    });
  });

  it("gives initialize's malformed params the stdio server's short -32602", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: sessionHeaders(server.token),
      body: '{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":7}}',
    });
    const body = (await response.json()) as Plain;
    expect(body).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(JSON.stringify(body)).not.toMatch(/zod|at .*\.js/);
  });

  it("is listed by the MCP Inspector's CLI over HTTP: tools, resources, prompts (through a proxy that adds the token)", async () => {
    // The Inspector 0.15.0 CLI sends no headers of its own; a team puts such a proxy in front.
    const proxy = createServer((req, res) => {
      const upstream = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: req.url,
          method: req.method,
          headers: {
            ...req.headers,
            host: `127.0.0.1:${server.port}`,
            authorization: `Bearer ${server.token}`,
          },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const { stdout } = await run(
        process.execPath,
        [INSPECTOR, "--cli", `http://127.0.0.1:${port}/mcp`, "--transport", "http", "--method", "tools/list"],
        { cwd: home.path, maxBuffer: 64 * 1024 * 1024 },
      );
      const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect(names).toContain("stratum_plan");
      const client = await server.connect();
      expect(names).toEqual((await client.listTools()).tools.map((t) => t.name));
      // Resources and prompts too, as over stdio.
      const listed = async (method: string): Promise<unknown> =>
        JSON.parse(
          (
            await run(
              process.execPath,
              [INSPECTOR, "--cli", `http://127.0.0.1:${port}/mcp`, "--transport", "http", "--method", method],
              { cwd: home.path, maxBuffer: 64 * 1024 * 1024 },
            )
          ).stdout,
        );
      const resources = (await listed("resources/list")) as { resources: { uri: string }[] };
      expect(resources.resources.map((r) => r.uri)).toContain("stratum://schema/stratum.schema.json");
      const prompts = (await listed("prompts/list")) as { prompts: { name: string }[] };
      expect(prompts.prompts.map((p) => p.name)).toEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
      );
      expect(prompts.prompts.length).toBeGreaterThan(0);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("writes nothing on standard output, and only the start lines on standard error", () => {
    expect(server.stdout()).toBe("");
    expect(unexpectedStderr(server.stderr())).toMatch(
      /^stratum-mcp: serving MCP over Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp\nstratum-mcp: bearer token \(shown only now; set STRATUM_MCP_TOKEN to choose one\): \S+\n$/,
    );
  });
});

describe("sessions: capped and closed when idle", () => {
  it("refuses a session past STRATUM_MCP_MAX_SESSIONS (503) and closes an idle one (404), which frees its place", async () => {
    const home = tempDir("stratum-mcp-http-sessions-");
    const server = await startHttpServer({
      cwd: home.path,
      home: home.path,
      env: { STRATUM_MCP_MAX_SESSIONS: "2", STRATUM_MCP_SESSION_IDLE: "1" },
    });
    try {
      const first = await rawSession(server.url, server.token);
      await rawSession(server.url, server.token);
      const third = await fetch(server.url, {
        method: "POST",
        headers: sessionHeaders(server.token),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "c", version: "0" },
          },
        }),
      });
      expect(third.status).toBe(503);
      expect(await third.json()).toMatchObject({
        error: { message: expect.stringMatching(/2 sessions are open/) },
      });
      // Idle for more than 1 s, it is closed by the next sweep (every 250 ms). A ping that still
      // finds it open (a starved timer) makes it busy again, so each try waits the whole time.
      let status = 200;
      for (let tries = 0; tries < 10 && status !== 404; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const ping = await fetch(server.url, {
          method: "POST",
          headers: sessionHeaders(server.token, first),
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        });
        await ping.text();
        status = ping.status;
      }
      expect(status).toBe(404);
      expect(await rawSession(server.url, server.token)).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await server.stop();
      home.dispose();
    }
  }, 60_000);
});

describe("starting and stopping", () => {
  it("stratumc serve --http serves the same endpoint; SIGTERM ends it", async () => {
    const home = tempDir("stratum-mcp-http-serve-");
    const server = await startHttpServer({
      cwd: home.path,
      home: home.path,
      command: [BUNDLE, "serve"],
      env: { STRATUM_MCP_TOKEN: "a-chosen-token-of-32-characters!" },
    });
    try {
      expect(server.stderr()).not.toContain("a-chosen-token");
      const client = await server.connect();
      expect((await client.listTools()).tools.length).toBeGreaterThan(20);
      const exit = await server.stop();
      expect(exit).toEqual({ code: null, signal: "SIGTERM" });
    } finally {
      home.dispose();
    }
  }, 60_000);

  it.each([
    [["--http", "localhost"], /--http: expected HOST:PORT/],
    [["--http", "127.0.0.1:70000"], /--http: expected HOST:PORT/],
  ])("refuses %j with a usage error", async (args, message) => {
    const home = tempDir("stratum-mcp-http-bad-");
    try {
      const failed = await run(process.execPath, [join(REPO, "bin/stratum-mcp.cjs"), ...args], {
        cwd: home.path,
        env: { PATH: process.env.PATH ?? "", STRATUM_HOME: home.path },
      }).catch((e: { code: number; stderr: string }) => e);
      expect("code" in failed ? failed.code : 0).toBe(2);
      expect("stderr" in failed ? failed.stderr : "").toMatch(message);
    } finally {
      home.dispose();
    }
  });

  it("refuses a STRATUM_MCP_TOKEN too short to be safe, without printing it", async () => {
    const home = tempDir("stratum-mcp-http-bad-");
    try {
      const failed = await run(
        process.execPath,
        [join(REPO, "bin/stratum-mcp.cjs"), "--http", "127.0.0.1:0"],
        {
          cwd: home.path,
          env: { PATH: process.env.PATH ?? "", STRATUM_HOME: home.path, STRATUM_MCP_TOKEN: "short-secret" },
        },
      ).catch((e: { code: number; stderr: string }) => e);
      expect("code" in failed ? failed.code : 0).toBe(2);
      const stderr = "stderr" in failed ? failed.stderr : "";
      expect(stderr).toMatch(/STRATUM_MCP_TOKEN: at least 16 characters/);
      expect(stderr).not.toContain("short-secret");
    } finally {
      home.dispose();
    }
  });
});
