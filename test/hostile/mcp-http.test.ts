// The built `stratum-mcp --http` against requests it must refuse (docs/guides/mcp-server-http.md
// "Security"): without the bearer token or with a wrong one (401), from a foreign Origin or under
// a foreign Host (403, DNS rebinding), bodies past the limit (413, with Content-Length and
// chunked), bodies that are not JSON, batches and 100,000-level nesting (short JSON-RPC errors);
// no answer carries a stack trace or the token, the token is on standard error once (its first
// print) and never on standard output, and the server keeps serving. Long work (a fuzz) in one
// session does not hold another session's calls.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manyFlowsSpec } from "../../bench/lib/heavy-specs";
import {
  type RunningHttpServer,
  rawSession,
  sessionHeaders,
  startHttpServer,
} from "../mcp/support/http-server";
import { tempDir } from "../mcp/support/server";

const ALLOWED_ORIGIN = "http://agents.example.internal:3000";
const BODY_LIMIT = 32 * 1024 * 1024;

type Plain = Record<string, unknown>;

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

describe("stratum-mcp --http refuses what it must", () => {
  const home = tempDir("stratum-hostile-http-");
  let server: RunningHttpServer;
  /** Every body the server answered in this file: none may carry the token or a stack. */
  const bodies: string[] = [];

  beforeAll(async () => {
    server = await startHttpServer({
      cwd: home.path,
      home: home.path,
      env: { STRATUM_MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    home.dispose();
  });

  /** A raw request through node:http (which, unlike fetch, may set Host) with a body given in chunks. */
  function raw(
    headers: Record<string, string>,
    chunks: readonly (string | Buffer)[] = [],
    method = "POST",
  ): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: server.port, path: "/mcp", method, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => {
          bodies.push(body);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      });
      req.on("error", reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "0" } },
  });

  function jsonOf(answer: RawAnswer): Plain {
    expect(answer.headers["content-type"]).toBe("application/json");
    return JSON.parse(answer.body) as Plain;
  }

  it.each([
    ["no Authorization header", {}],
    ["a wrong token", { Authorization: "Bearer wrong-token-wrong-token-wrong-token-wrong" }],
    ["another scheme", { Authorization: "Basic dXNlcjpwYXNz" }],
    ["an empty bearer", { Authorization: "Bearer " }],
  ])("answers %s with 401 and WWW-Authenticate", async (_what, auth: Record<string, string>) => {
    const { Authorization: _drop, ...rest } = sessionHeaders(server.token);
    const answer = await raw({ ...rest, ...auth }, [initialize]);
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe('Bearer realm="stratum-mcp"');
    expect(jsonOf(answer)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Unauthorized: a valid bearer token is required" },
    });
  });

  it("accepts the token in a prefix of another token no more than a wrong one", async () => {
    const answer = await raw({ ...sessionHeaders(server.token), Authorization: `Bearer ${server.token}x` }, [
      initialize,
    ]);
    expect(answer.status).toBe(401);
    const truncated = await raw(
      { ...sessionHeaders(server.token), Authorization: `Bearer ${server.token.slice(0, -1)}` },
      [initialize],
    );
    expect(truncated.status).toBe(401);
  });

  it("refuses the SDK client without the token or with a wrong one", async () => {
    await expect(server.connect({})).rejects.toThrow(/401|Unauthorized/);
    await expect(server.connect({ Authorization: "Bearer not-the-token-not-the-token" })).rejects.toThrow(
      /401|Unauthorized/,
    );
  });

  it("refuses a foreign Origin with 403 (the SDK client too); the allowed one and none pass", async () => {
    const foreign = await raw({ ...sessionHeaders(server.token), Origin: "http://evil.example" }, [
      initialize,
    ]);
    expect(foreign.status).toBe(403);
    expect(jsonOf(foreign)).toMatchObject({
      error: { message: "Forbidden: requests from this Origin are not allowed" },
    });
    // Checked before the token: a page cannot learn whether a guess was right.
    const { Authorization: _drop, ...noToken } = sessionHeaders(server.token);
    expect((await raw({ ...noToken, Origin: "http://evil.example" }, [initialize])).status).toBe(403);
    await expect(
      server.connect({ Authorization: `Bearer ${server.token}`, Origin: "http://evil.example" }),
    ).rejects.toThrow(/403|Forbidden/);
    const allowed = await server.connect({ Authorization: `Bearer ${server.token}`, Origin: ALLOWED_ORIGIN });
    expect((await allowed.listTools()).tools.length).toBeGreaterThan(20);
    expect((await raw(sessionHeaders(server.token), [initialize])).status).toBe(200);
  });

  it("refuses a foreign Host with 403 (DNS rebinding); localhost and the bound address pass", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${server.port}`,
      "127.0.0.1",
      `127.0.0.1:${server.port + 1}`,
    ]) {
      const answer = await raw({ ...sessionHeaders(server.token), Host: host }, [initialize]);
      expect(answer.status, host).toBe(403);
      expect(jsonOf(answer)).toMatchObject({
        error: { message: "Forbidden: the Host header does not name this server" },
      });
    }
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `LOCALHOST:${server.port}`]) {
      expect((await raw({ ...sessionHeaders(server.token), Host: host }, [initialize])).status, host).toBe(
        200,
      );
    }
  });

  it("answers a body over the limit with 413, declared or chunked, and keeps serving", async () => {
    const declared = await raw(
      { ...sessionHeaders(server.token), "Content-Length": String(BODY_LIMIT + 1) },
      [Buffer.alloc(64 * 1024, 0x20)],
    ).catch((e: Error) => e);
    // The server answers at once without reading the body; the client may see the reset first.
    if (!(declared instanceof Error)) {
      expect(declared.status).toBe(413);
      expect(jsonOf(declared)).toMatchObject({
        error: { code: -32600, message: `Request body larger than ${BODY_LIMIT} bytes` },
      });
    }
    const big = Buffer.alloc(1024 * 1024, 0x20);
    const chunked = await raw(
      { ...sessionHeaders(server.token), "Transfer-Encoding": "chunked" },
      Array.from({ length: 33 }, () => big),
    );
    expect(chunked.status).toBe(413);
    expect(jsonOf(chunked)).toMatchObject({
      error: { message: `Request body larger than ${BODY_LIMIT} bytes` },
    });
    // Just under the limit is read (and is not JSON).
    const under = await raw(sessionHeaders(server.token), [`{"a":"${"x".repeat(BODY_LIMIT - 20)}"`]);
    expect(under.status).toBe(400);
    expect((await raw(sessionHeaders(server.token), [initialize])).status).toBe(200);
  }, 60_000);

  it("answers bodies that are not JSON, batches and deep nesting with short errors", async () => {
    const sessionId = await rawSession(server.url, server.token);
    const headers = sessionHeaders(server.token, sessionId);
    const cases: [string, number, number][] = [
      ["{not json", 400, -32700],
      ["", 400, -32700],
      ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', 400, -32600],
      [
        `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
        400,
        -32600,
      ],
    ];
    for (const [body, status, code] of cases) {
      const answer = await raw(headers, [body]);
      expect(answer.status, body.slice(0, 40)).toBe(status);
      expect(jsonOf(answer)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } });
    }
    // A tools/call nested past the limits: its tool names the argument.
    const deep = await raw(headers, [
      `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"stratum_validate","arguments":{"spec":${"[".repeat(100_000)}${"]".repeat(100_000)}}}}`,
    ]);
    expect(deep.status).toBe(200);
    expect(deep.body).toMatch(/invalid_arguments/);
    expect(deep.body).toMatch(/spec/);
    const ping = await raw(headers, ['{"jsonrpc":"2.0","id":2,"method":"ping"}']);
    expect(ping.body).toContain('"result":{}');
  }, 60_000);

  it("refuses a second request with the id of one in progress; the first still gets its answer", async () => {
    const sessionId = await rawSession(server.url, server.token);
    const headers = sessionHeaders(server.token, sessionId);
    const fuzz = () =>
      raw(headers, [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          // The most runs: the deadline, not a finished exploration, ends it, so it is still in
          // progress when the second request comes, however fast the machine.
          params: {
            name: "stratum_fuzz",
            arguments: { spec: manyFlowsSpec(50), runs: 10_000, time_budget_ms: 1_500 },
          },
        }),
      ]);
    const first = fuzz();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await fuzz();
    expect(second.status).toBe(200);
    expect(jsonOf(second)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32600,
        message: "Invalid Request: the id is already used by a request in progress; this request was not run",
      },
    });
    // Before: the second took the first's place and the first was never answered.
    const answered = await Promise.race([
      first,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
    ]);
    expect(answered?.body).toMatch(/"id":7/);
    expect(answered?.body).toMatch(/status/);
    // Answered, the id may be used again.
    const again = await raw(headers, ['{"jsonrpc":"2.0","id":7,"method":"ping"}']);
    expect(again.body).toContain('"result":{}');
  }, 60_000);

  it("answers other paths 404 and other methods 405", async () => {
    const other = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/",
          method: "GET",
          headers: sessionHeaders(server.token),
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(other).toBe(404);
    expect((await raw(sessionHeaders(server.token), [], "PUT")).status).toBe(405);
  });

  it("answers another session while a fuzz runs in one", async () => {
    const fuzzing = await server.connect();
    const other = await server.connect();
    const order: string[] = [];
    const fuzz = fuzzing
      .callTool(
        {
          name: "stratum_fuzz",
          arguments: { spec: manyFlowsSpec(300), runs: 10_000, time_budget_ms: 4_000 },
        },
        undefined,
        { timeout: 60_000 },
      )
      .then(() => order.push("fuzz"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.listTools();
    order.push("tools/list");
    await other.callTool({ name: "stratum_validate", arguments: { spec: manyFlowsSpec(2) } });
    order.push("validate");
    await fuzz;
    expect(order).toEqual(["tools/list", "validate", "fuzz"]);
  }, 60_000);

  it("never shows the token again: once on standard error, never on standard output or in an answer", () => {
    const stderr = server.stderr();
    expect(stderr.split(server.token).length - 1).toBe(1);
    expect(server.stdout()).toBe("");
    for (const body of bodies) {
      expect(body).not.toContain(server.token);
      expect(body).not.toMatch(/\n\s+at /);
    }
    expect(bodies.length).toBeGreaterThan(20);
  });
});
