// The resource and prompt methods of the built stratum-mcp over the raw wire, with what a hostile
// or broken client sends: params of the wrong shape, URIs that try to leave the store (`..`,
// percent-encoding, other schemes) or are megabytes long, a forged or huge cursor, a huge prompt
// argument. Each is answered at once with a short -32602 naming the field or -32002 naming the
// URI — never -32603, a zod dump or a stack — nothing outside the store is read, and the server
// keeps answering.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawSession, type RpcMessage } from "../mcp/support/raw-session";
import { leaks, type Sandbox, sandbox } from "./mcp-support";

describe("resources and prompts under hostile requests", () => {
  let box: Sandbox;
  let server: RawSession;
  let n = 0;

  beforeAll(async () => {
    box = sandbox("stratum-hostile-resources-");
    server = new RawSession(box);
    await server.initialize();
  });

  afterAll(async () => {
    const code = await server.closeInput();
    box.dispose();
    expect(code).toBe(0);
  });

  async function ask(method: string, params?: unknown): Promise<RpcMessage> {
    const answer = await server.request(`r${n++}`, method, params);
    expect(leaks(JSON.stringify(answer)), method).toEqual([]);
    return answer;
  }

  it("answers params of the wrong shape with a short -32602 naming the field", async () => {
    const cases: [string, unknown, string][] = [
      ["resources/read", { uri: 5 }, "Invalid params: params.uri: expected string, got integer"],
      ["resources/read", {}, "Invalid params: params.uri: missing"],
      ["resources/read", undefined, "Invalid params: params: missing"],
      ["resources/subscribe", { uri: ["x"] }, "Invalid params: params.uri: expected string, got array"],
      ["resources/unsubscribe", { uri: null }, "Invalid params: params.uri: expected string, got null"],
      ["resources/list", { cursor: 5 }, "Invalid params: params.cursor: expected string, got integer"],
      [
        "resources/templates/list",
        { cursor: {} },
        "Invalid params: params.cursor: expected string, got object",
      ],
      ["prompts/list", { cursor: true }, "Invalid params: params.cursor: expected string, got boolean"],
      ["prompts/get", { name: 5 }, "Invalid params: params.name: expected string, got integer"],
      [
        "prompts/get",
        { name: "stratum-plan", arguments: { request: 5 } },
        "Invalid params: params.arguments.request: expected string, got integer",
      ],
    ];
    for (const [method, params, message] of cases) {
      expect((await ask(method, params)).error, `${method} ${JSON.stringify(params)}`).toEqual({
        code: -32602,
        message,
      });
    }
  });

  it("never reaches past the store: other schemes, traversal and encoded ids are not found", async () => {
    for (const uri of [
      "file:///etc/passwd",
      "stratum://flows/../../etc/passwd",
      "stratum://flows/..%2F..%2Fetc%2Fpasswd",
      "stratum://flows/%2e%2e",
      "stratum://flows/",
      "stratum://flows/.hidden",
      "stratum://flows/a/b",
      "stratum://flows/a\u0000b",
      "stratum://schema/../flows",
      `stratum://flows/${"a".repeat(129)}`,
    ]) {
      for (const method of ["resources/read", "resources/subscribe"]) {
        expect((await ask(method, { uri })).error, `${method} ${uri}`).toEqual({
          code: -32002,
          message: "Resource not found",
          data: { uri },
        });
      }
    }
  });

  it("answers megabyte URIs, cursors and prompt arguments at once, and keeps serving", async () => {
    const big = "a".repeat(4 * 1024 * 1024);
    const read = await ask("resources/read", { uri: `stratum://flows/${big}` });
    expect(read.error).toEqual({ code: -32002, message: "Resource not found" }); // not echoed back
    const list = await ask("resources/list", { cursor: big });
    expect(list.error).toEqual({
      code: -32602,
      message: "Invalid params: params.cursor: not a cursor this server gave",
    });
    const forged = Buffer.from(JSON.stringify([Number.MAX_VALUE, "x"])).toString("base64url");
    expect((await ask("resources/list", { cursor: forged })).result).toEqual({ resources: [] });
    const prompt = await ask("prompts/get", { name: "stratum-plan", arguments: { request: big } });
    expect(prompt.error).toEqual({
      code: -32602,
      message: "Invalid params: params.arguments.request: longer than 16384 characters",
    });
    const unknown = await ask("prompts/get", { name: big.slice(0, 1000) });
    expect(unknown.error).toEqual({ code: -32602, message: "Invalid params: unknown prompt" });
    expect((await ask("ping")).result).toEqual({});
  });

  it("wrote nothing but JSON-RPC, nothing to standard error, and nothing outside its store", () => {
    for (const line of server.lines) expect(JSON.parse(line).jsonrpc, line.slice(0, 200)).toBe("2.0");
    expect(server.stderr).toBe("");
    expect(box.tree().filter((p) => !p.startsWith("home") && !p.startsWith("work"))).toEqual([]);
  });
});
