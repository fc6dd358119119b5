// Every tool, called over the wire with arguments of the wrong
// shape, answers with the tool error of docs/reference/runtime.md §16.1 — isError true,
// `{"status": "error", "error_type": "invalid_arguments", "message": "<argument>: <problem>"}` —
// and a tools/call whose params themselves are malformed gets a short JSON-RPC -32602 naming the
// field. Never -32603, a zod issue dump or a stack trace (the old server answered `arguments: "x"`
// with -32603 and the zod dump).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawSession, type RpcMessage, toolContent } from "../mcp/support/raw-session";
import { leaks, type Sandbox, sandbox } from "./mcp-support";

interface ToolInfo {
  readonly name: string;
  readonly inputSchema: {
    readonly properties: Record<string, { readonly type: string }>;
    readonly required?: readonly string[];
  };
}

/** A value of the wrong JSON type for a parameter of this type, and how the message names it. */
const WRONG: Record<string, readonly [unknown, string][]> = {
  string: [
    [5, "integer"],
    [1.5, "number"],
    [null, "null"],
    [true, "boolean"],
    [["x"], "array"],
    [{ a: 1 }, "object"],
  ],
  object: [
    ["{}", "string"],
    [[1], "array"],
    [null, "null"],
    [0, "integer"],
  ],
  integer: [
    ["3", "string"],
    [[3], "array"],
    [1.5, "number"],
  ],
  array: [
    ["[]", "string"],
    [{ a: 1 }, "object"],
    [null, "null"],
  ],
};

/** Valid arguments of every parameter (so each case has exactly one thing wrong). */
function validArguments(tool: ToolInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(tool.inputSchema.properties)) {
    // A parameter without one `type` is stratum_judge's budget: an object or null.
    out[name] =
      schema.type === undefined
        ? null
        : schema.type === "object"
          ? {}
          : schema.type === "array"
            ? []
            : schema.type === "integer"
              ? 1
              : "x";
  }
  return out;
}

describe("wrong-shaped tool arguments over the wire", () => {
  let box: Sandbox;
  let server: RawSession;
  let tools: ToolInfo[];
  let nextId = 0;

  beforeAll(async () => {
    box = sandbox("stratum-hostile-args-");
    server = new RawSession(box);
    await server.initialize();
    tools = (await server.request("list", "tools/list")).result?.tools as ToolInfo[];
  });

  afterAll(async () => {
    const code = await server.closeInput();
    box.dispose();
    expect(code).toBe(0);
  });

  const call = (params: unknown) => server.request(`call-${nextId++}`, "tools/call", params);

  function expectInvalidArguments(answer: RpcMessage, message: string | RegExp): void {
    const text = JSON.stringify(answer);
    expect(leaks(text), text).toEqual([]);
    expect(answer.error, text).toBeUndefined();
    expect(answer.result?.isError, text).toBe(true);
    const content = toolContent(answer);
    expect(content.status).toBe("error");
    expect(content.error_type).toBe("invalid_arguments");
    if (typeof message === "string") expect(content.message).toBe(message);
    else expect(content.message).toMatch(message);
    expect(answer.result?.content?.[0]?.text).toBe(
      `{\n  "status": "error",\n  "error_type": "invalid_arguments",\n  "message": ${JSON.stringify(content.message)}\n}`,
    );
  }

  it("lists the twenty-five tools", () => {
    expect(tools).toHaveLength(25);
  });

  it("names the parameter of the wrong JSON type, for every parameter of every tool", async () => {
    for (const tool of tools) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties)) {
        for (const [value, kind] of WRONG[schema.type] ?? []) {
          const args = { ...validArguments(tool), [name]: value };
          const answer = await call({ name: tool.name, arguments: args });
          // zod checks an integer parameter as a number first: "3" is not a number at all.
          const message =
            schema.type === "integer"
              ? new RegExp(`^${name}: expected (integer|number), got ${kind}$`)
              : `${name}: expected ${schema.type}, got ${kind}`;
          expectInvalidArguments(answer, message);
        }
      }
    }
  });

  it("names each missing required parameter", async () => {
    for (const tool of tools) {
      for (const name of tool.inputSchema.required ?? []) {
        const args = validArguments(tool);
        delete args[name];
        expectInvalidArguments(
          await call({ name: tool.name, arguments: args }),
          `${name}: missing required argument`,
        );
      }
    }
  });

  it("says `arguments: expected object` when the arguments are not an object, for every tool", async () => {
    for (const tool of tools) {
      for (const [value, kind] of [
        ["x", "string"],
        [[1, 2], "array"],
        [5, "integer"],
        [false, "boolean"],
      ] as const) {
        expectInvalidArguments(
          await call({ name: tool.name, arguments: value }),
          `arguments: expected object, got ${kind}`,
        );
      }
    }
  });

  it("keeps an out-of-range number short (stratum_fuzz runs)", async () => {
    expectInvalidArguments(
      await call({ name: "stratum_fuzz", arguments: { spec: "x", runs: 0 } }),
      /^runs: .*1/,
    );
  });

  it("answers malformed tools/call params with a short -32602 naming the field", async () => {
    const cases: [unknown, string][] = [
      [undefined, "Invalid params: params: expected object, got nothing"],
      [{ arguments: {} }, "Invalid params: params.name: missing"],
      [{ name: 5, arguments: {} }, "Invalid params: params.name: expected string, got integer"],
      [{ name: ["stratum_audit"] }, "Invalid params: params.name: expected string, got array"],
    ];
    for (const [params, message] of cases) {
      const answer = await call(params);
      expect(leaks(JSON.stringify(answer))).toEqual([]);
      expect(answer.error).toEqual({ code: -32602, message });
    }
    const unknown = await call({ name: "nope", arguments: "x" });
    expect(unknown.error).toEqual({ code: -32602, message: "Unknown tool: nope" });
  });

  it("answers bad params of the SDK's own methods with -32602, not a zod dump", async () => {
    const init = await server.request("bad-init", "initialize", { protocolVersion: 5 });
    expect(init.error).toEqual({
      code: -32602,
      message: "Invalid params: params.protocolVersion: expected string, got integer",
    });
    const list = await server.request("bad-list", "tools/list", { cursor: 5 });
    expect(list.error).toEqual({
      code: -32602,
      message: "Invalid params: params.cursor: expected string, got integer",
    });
    expect((await server.request("still", "ping")).result).toEqual({});
  });

  it("wrote nothing but clean JSON-RPC and nothing to standard error", () => {
    expect(leaks(server.lines.join("\n"))).toEqual([]);
    for (const line of server.lines) expect(JSON.parse(line).jsonrpc, line).toBe("2.0");
    expect(server.stderr).toBe("");
  });
});
