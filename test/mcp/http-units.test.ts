// The parts of the HTTP server (mcp/http/) on their own: the `--http` address, the token and its
// check, the Host/Origin guard, the environment's settings, the body's limit and decoding, the
// session table's idle expiry.

import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bearerToken, MIN_TOKEN_LENGTH, TokenCheck } from "../../mcp/http/bearer-token";
import {
  DEFAULT_KEEP_ALIVE_S,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_S,
  DEFAULT_STOP_GRACE_S,
  httpSettings,
} from "../../mcp/http/http-settings";
import { isLoopbackHost, parseListenAddress } from "../../mcp/http/listen-address";
import { OpenResponses } from "../../mcp/http/open-responses";
import { decodeBody, MAX_BODY_BYTES, readBody } from "../../mcp/http/request-body";
import { RequestGuard } from "../../mcp/http/request-guard";
import { SessionTable } from "../../mcp/http/session-table";
import { PyDict, PyFloat } from "../../stdlib/index";

describe("the --http address", () => {
  it.each([
    ["127.0.0.1:8808", { host: "127.0.0.1", port: 8808 }],
    ["localhost:0", { host: "localhost", port: 0 }],
    ["[::1]:65535", { host: "::1", port: 65535 }],
    ["0.0.0.0:80", { host: "0.0.0.0", port: 80 }],
    ["mcp.example.internal:9000", { host: "mcp.example.internal", port: 9000 }],
  ])("reads %s", (text, expected) => {
    expect(parseListenAddress(text)).toEqual(expected);
  });

  it.each([
    "localhost",
    ":8808",
    "127.0.0.1:",
    "127.0.0.1:65536",
    "::1:8808",
    "[nothex]:1",
    "a b:1",
    "h:1:2",
  ])("refuses %s with one line", (text) => {
    const parsed = parseListenAddress(text);
    expect(parsed).toHaveProperty("error");
    expect("error" in parsed && parsed.error).toMatch(/^--http: /);
  });

  it("tells loopback hosts from the others", () => {
    for (const h of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "app.localhost"])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "10.0.0.1", "example.com", "localhost.example.com"]) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });
});

describe("the bearer token", () => {
  it("is STRATUM_MCP_TOKEN, or 32 random bytes made at start", () => {
    expect(bearerToken({ STRATUM_MCP_TOKEN: "x".repeat(MIN_TOKEN_LENGTH) })).toEqual({
      token: "x".repeat(MIN_TOKEN_LENGTH),
      generated: false,
    });
    const made = bearerToken({});
    const again = bearerToken({ STRATUM_MCP_TOKEN: "" });
    expect(made).toMatchObject({ generated: true, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect("token" in again && "token" in made && again.token !== made.token).toBe(true);
  });

  it("refuses a short token or one with spaces, without repeating it", () => {
    for (const bad of ["x".repeat(MIN_TOKEN_LENGTH - 1), `${"x".repeat(20)} y`, `${"x".repeat(20)}é`]) {
      const setting = bearerToken({ STRATUM_MCP_TOKEN: bad });
      expect("error" in setting && setting.error).toMatch(/^STRATUM_MCP_TOKEN: /);
      expect(JSON.stringify(setting)).not.toContain(bad);
    }
  });

  it("accepts exactly `Bearer <token>` (any case of the scheme), nothing else", () => {
    const token = "s3cret-token-0123456789";
    const check = new TokenCheck(token);
    expect(check.accepts(`Bearer ${token}`)).toBe(true);
    expect(check.accepts(`bearer  ${token} `)).toBe(true);
    for (const header of [
      undefined,
      "",
      token,
      `Bearer`,
      `Bearer ${token}x`,
      `Bearer ${token.slice(1)}`,
      `Basic ${token}`,
    ]) {
      expect(check.accepts(header), String(header)).toBe(false);
    }
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (guess) => {
        expect(check.accepts(`Bearer ${guess}`)).toBe(guess === token);
      }),
    );
  });
});

describe("the Host and Origin guard", () => {
  const guard = new RequestGuard({
    host: "127.0.0.1",
    port: 8808,
    allowedHosts: "mcp.example.internal, proxy.example:443",
    allowedOrigins: "https://ci.example/",
  });

  it("passes the server's own names at its port and the listed ones", () => {
    for (const host of [
      "127.0.0.1:8808",
      "localhost:8808",
      "[::1]:8808",
      "MCP.example.internal:8808",
      "proxy.example:443",
    ]) {
      expect(guard.check(host, undefined), host).toBeNull();
    }
  });

  it("refuses any other Host, a missing one and the right name at another port", () => {
    for (const host of [
      undefined,
      "",
      "evil.example:8808",
      "127.0.0.1",
      "127.0.0.1:8809",
      "proxy.example:8808",
    ]) {
      expect(guard.check(host, undefined)?.status, String(host)).toBe(403);
    }
  });

  it("passes no Origin and the listed origins, refuses the others", () => {
    expect(guard.check("localhost:8808", "https://ci.example")).toBeNull();
    for (const origin of ["https://evil.example", "http://ci.example", "null", "http://localhost:8808"]) {
      expect(guard.check("localhost:8808", origin)?.message, origin).toMatch(/Origin/);
    }
  });

  it("takes a wildcard bind's own addresses and the default port without a number", () => {
    const wildcard = new RequestGuard({ host: "0.0.0.0", port: 80 });
    expect(wildcard.check("127.0.0.1", undefined)).toBeNull();
    expect(wildcard.check("localhost:80", undefined)).toBeNull();
    expect(wildcard.check("0.0.0.0:80", undefined)?.status).toBe(403);
  });
});

describe("the environment's settings", () => {
  it("has documented defaults", () => {
    expect(httpSettings({})).toMatchObject({
      tokenGenerated: true,
      maxSessions: DEFAULT_MAX_SESSIONS,
      sessionIdleMs: DEFAULT_SESSION_IDLE_S * 1000,
      stopGraceMs: DEFAULT_STOP_GRACE_S * 1000,
      keepAliveMs: DEFAULT_KEEP_ALIVE_S * 1000,
    });
    expect([
      DEFAULT_MAX_SESSIONS,
      DEFAULT_SESSION_IDLE_S,
      DEFAULT_STOP_GRACE_S,
      DEFAULT_KEEP_ALIVE_S,
    ]).toEqual([64, 1800, 10, 65]);
    expect(httpSettings({ STRATUM_MCP_STOP_GRACE: "3" })).toMatchObject({ stopGraceMs: 3000 });
    expect(httpSettings({ STRATUM_MCP_KEEP_ALIVE: "120" })).toMatchObject({ keepAliveMs: 120_000 });
  });

  it.each(["0", "-1", "1.5", "many"])(
    "refuses %s for STRATUM_MCP_MAX_SESSIONS, STRATUM_MCP_SESSION_IDLE, STRATUM_MCP_STOP_GRACE and STRATUM_MCP_KEEP_ALIVE",
    (v) => {
      expect(httpSettings({ STRATUM_MCP_MAX_SESSIONS: v })).toEqual({
        error: `STRATUM_MCP_MAX_SESSIONS: expected a positive whole number, got '${v}'`,
      });
      expect(httpSettings({ STRATUM_MCP_SESSION_IDLE: v })).toHaveProperty("error");
      expect(httpSettings({ STRATUM_MCP_STOP_GRACE: v })).toEqual({
        error: `STRATUM_MCP_STOP_GRACE: expected a positive whole number, got '${v}'`,
      });
      expect(httpSettings({ STRATUM_MCP_KEEP_ALIVE: v })).toEqual({
        error: `STRATUM_MCP_KEEP_ALIVE: expected a positive whole number, got '${v}'`,
      });
    },
  );
});

describe("the body", () => {
  const message = (body: string, headers: Record<string, string> = {}): IncomingMessage =>
    Object.assign(Readable.from([Buffer.from(body)]), {
      headers,
      complete: true,
    }) as unknown as IncomingMessage;

  it("is read up to the limit; past it, or declared past it, it is refused", async () => {
    expect((await readBody(message("12345"), 5))?.toString()).toBe("12345");
    expect(await readBody(message("123456"), 5)).toBeNull();
    expect(await readBody(message("1", { "content-length": "6" }), 5)).toBeNull();
    expect(MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
  });

  it("keeps a tools/call's float arguments floats", () => {
    const decoded = decodeBody(
      Buffer.from(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"r":{"v":1.0}}}}',
      ),
    );
    expect(decoded.ok).toBe(true);
    const args = decoded.ok ? decoded.toolArguments : undefined;
    expect(args).toBeInstanceOf(PyDict);
    const r = (args as PyDict).entries.get("r")?.[1] as PyDict;
    expect(r.entries.get("v")?.[1]).toEqual(new PyFloat(1));
  });

  it("refuses text that is not JSON, a batch and a deep message other than tools/call", () => {
    expect(decodeBody(Buffer.from("{"))).toMatchObject({ ok: false, status: 400, code: -32700 });
    expect(decodeBody(Buffer.from("[]"))).toMatchObject({ ok: false, status: 400, code: -32600 });
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${"[".repeat(5000)}${"]".repeat(5000)}}}`;
    expect(decodeBody(Buffer.from(deep))).toMatchObject({ ok: false, code: -32600 });
  });
});

describe("the session table", () => {
  it("closes a session idle past the limit, never one with a request open", async () => {
    let now = 0;
    const closed: string[] = [];
    const table = new SessionTable<{ close(): Promise<void> }>(1000, () => now);
    const session = (id: string) => ({
      close: async () => {
        closed.push(id);
      },
    });
    table.add("a", session("a"));
    table.add("b", session("b"));
    const end = table.begin("b");
    now = 1001;
    expect(await table.expire()).toBe(1);
    expect(closed).toEqual(["a"]);
    expect(table.get("a")).toBeUndefined();
    end();
    now = 1500;
    expect(await table.expire()).toBe(0);
    now = 2002;
    expect(await table.expire()).toBe(1);
    expect(table.size).toBe(0);
  });
});

describe("the responses a stop waits for", () => {
  /** A response not yet written: 'finish' (all handed to the socket) or 'close' ends it. */
  const response = (): ServerResponse =>
    Object.assign(new EventEmitter(), {
      writableFinished: false,
      destroyed: false,
    }) as unknown as ServerResponse;

  it("counts a POST until its response is written or its connection is gone, not before", async () => {
    const open = new OpenResponses();
    const post = response();
    const stream = response();
    open.track(post, true);
    open.track(stream, false);
    expect(await open.postsDone(20)).toBe(false);
    const done = open.postsDone(10_000);
    post.emit("finish");
    expect(await done).toBe(true);
    expect(await open.allDone(20)).toBe(false);
    stream.emit("close");
    expect(await open.allDone(20)).toBe(true);
  });
});
