// Protocol hygiene of the built stratum-mcp (docs/reference/runtime.md §16.1): the tool list, invalid arguments,
// kind-preserving data, nothing but JSON-RPC on standard output, bad lines, and the end of the
// session when standard input closes.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { dictFromRecord } from "../../stdlib/values/json";
import { PyFloat } from "../../stdlib/values/value";
import { callTool, McpStratumApi } from "./support/mcp-api";
import { PROTOCOL_VERSION, RawSession, type RpcMessage } from "./support/raw-session";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

/** The tools of docs/reference/runtime.md §16.2 (the two agent-run tools of docs/reference/runtime.md §16.6 among them) and stratum_fuzz: parameters, and which are required (the others have defaults). */
const TOOL_PARAMETERS: Record<string, { readonly all: string[]; readonly required: string[] }> = {
  stratum_validate: { all: ["spec"], required: ["spec"] },
  stratum_plan: { all: ["spec", "flow", "inputs"], required: ["spec", "flow"] },
  stratum_step_done: {
    all: ["flow_id", "step_id", "result", "usage"],
    required: ["flow_id", "step_id", "result"],
  },
  stratum_audit: { all: ["flow_id"], required: ["flow_id"] },
  stratum_gate_resolve: {
    all: ["flow_id", "step_id", "outcome", "rationale", "resolved_by"],
    required: ["flow_id", "step_id", "outcome", "rationale", "resolved_by"],
  },
  stratum_check_timeouts: { all: ["flow_id"], required: ["flow_id"] },
  stratum_skip_step: { all: ["flow_id", "step_id", "reason"], required: ["flow_id", "step_id", "reason"] },
  stratum_commit: { all: ["flow_id", "label"], required: ["flow_id", "label"] },
  stratum_revert: { all: ["flow_id", "label"], required: ["flow_id", "label"] },
  stratum_iteration_start: { all: ["flow_id", "step_id"], required: ["flow_id", "step_id"] },
  stratum_iteration_report: {
    all: ["flow_id", "step_id", "result"],
    required: ["flow_id", "step_id", "result"],
  },
  stratum_iteration_abort: {
    all: ["flow_id", "step_id", "reason"],
    required: ["flow_id", "step_id", "reason"],
  },
  stratum_resume: { all: ["flow_id"], required: ["flow_id"] },
  stratum_parallel_done: {
    all: ["flow_id", "step_id", "task_results", "merge_status"],
    required: ["flow_id", "step_id", "task_results", "merge_status"],
  },
  stratum_judge: {
    all: ["flow_id", "step_id", "predicates", "artifacts", "modified_files", "stakes", "budget"],
    required: ["flow_id", "step_id", "predicates", "artifacts"],
  },
  stratum_parallel_start: { all: ["flow_id", "step_id"], required: ["flow_id", "step_id"] },
  stratum_parallel_poll: { all: ["flow_id", "step_id"], required: ["flow_id", "step_id"] },
  stratum_parallel_advance: {
    all: ["flow_id", "step_id", "merge_status"],
    required: ["flow_id", "step_id", "merge_status"],
  },
  stratum_list_workflows: { all: ["workflows_dir"], required: [] },
  stratum_compile_speckit: { all: ["tasks_dir", "flow_name"], required: ["tasks_dir"] },
  stratum_draft_pipeline: { all: ["draft", "project_dir"], required: ["draft"] },
  stratum_agent_run: {
    all: [
      "prompt",
      "type",
      "context",
      "schema",
      "modelID",
      "model_id",
      "allowed_tools",
      "disallowed_tools",
      "thinking",
      "effort",
      "cwd",
      "read_jail",
      "correlation_id",
    ],
    required: ["prompt"],
  },
  stratum_cancel_agent_run: { all: ["correlation_id"], required: ["correlation_id"] },
  stratum_fuzz: { all: ["spec", "flow", "runs", "seed", "time_budget_ms"], required: ["spec"] },
  stratum_gate_ask: { all: ["flow_id", "step_id", "message"], required: ["flow_id", "step_id"] },
};

/** Parameters that are not strings (besides the object ones). */
const INTEGER_PARAMETERS = new Set(["runs", "seed", "time_budget_ms"]);

const OBJECT_PARAMETERS = new Set(["inputs", "result", "draft", "schema", "thinking", "artifacts"]);
/** Optional objects that may also be null: `usage` of stratum_step_done, stratum_judge's `budget`. */
const NULLABLE_OBJECT_PARAMETERS = new Set(["usage", "budget"]);
/** A string or an object (Python's `str | dict`): `merge_status` of parallel_done / advance. */
const STRING_OR_OBJECT_PARAMETERS = new Set(["merge_status"]);
const ARRAY_PARAMETERS = new Set([
  "task_results",
  "allowed_tools",
  "disallowed_tools",
  "predicates",
  "modified_files",
]);
const DEFAULTS: Record<string, unknown> = {
  inputs: {},
  workflows_dir: ".",
  type: "claude",
  flow_name: "tasks",
  project_dir: ".",
  stakes: "default",
  runs: 60,
  seed: 42,
  time_budget_ms: 5000,
};

/** A one-step flow whose ensure holds only for a float score (str(1.0) is '1.0', str(1) is '1'). */
const FLOAT_SPEC = `version: "0.2"
contracts:
  Score:
    score: {type: number}
functions:
  rate:
    mode: infer
    intent: "Rate the work"
    input:
      weight: {type: number}
    output: Score
    ensure:
      - "str(result.score) == '1.0'"
flows:
  main:
    input:
      weight: {type: number}
    steps:
      - id: rate
        function: rate
        inputs:
          weight: $.input.weight
`;

/** The structuredContent of a tools/call answer (fails the test when there is none). */
function structured(message: RpcMessage): Record<string, unknown> {
  const content = message.result?.structuredContent;
  if (typeof content !== "object" || content === null)
    throw new Error(`no tool result: ${JSON.stringify(message)}`);
  return content as Record<string, unknown>;
}

const invalidArgumentsText = (message: string) =>
  `{\n  "status": "error",\n  "error_type": "invalid_arguments",\n  "message": ${JSON.stringify(message)}\n}`;

describe("stratum-mcp over the SDK client", () => {
  const home = tempDir("stratum-mcp-protocol-");
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
    client = server.client;
  });

  afterAll(async () => {
    const code = await server.closeInput();
    home.dispose();
    expect(code).toBe(0);
    expect(unexpectedStderr(server.stderr())).toBe("");
  });

  it("introduces itself as stratum-mcp with tools, logging, resources and prompts", () => {
    expect(client.getServerVersion()).toEqual({ name: "stratum-mcp", version: "0.1.0" });
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      logging: {},
      resources: { subscribe: true },
      prompts: {},
    });
  });

  it("lists exactly the twenty-five tools, with descriptions and input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(Object.keys(TOOL_PARAMETERS));
    for (const tool of tools) {
      const expected = TOOL_PARAMETERS[tool.name];
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
      expect(Object.keys(properties), tool.name).toEqual(expected?.all);
      expect(tool.inputSchema.required ?? [], tool.name).toEqual(expected?.required);
      for (const [name, schema] of Object.entries(properties)) {
        if (STRING_OR_OBJECT_PARAMETERS.has(name)) {
          const kinds = ((schema.anyOf ?? []) as Record<string, unknown>[]).map((m) => m.type);
          expect(kinds, `${tool.name}.${name}`).toEqual(["string", "object"]);
          expect(typeof schema.description, `${tool.name}.${name}`).toBe("string");
          continue;
        }
        if (NULLABLE_OBJECT_PARAMETERS.has(name)) {
          // An object or null (Python's Optional[dict]), whatever form the schema gives it.
          const kinds = JSON.stringify(schema).match(/"type":"(\w+)"/g) ?? [];
          expect(kinds, `${tool.name}.${name}`).toEqual(
            expect.arrayContaining(['"type":"object"', '"type":"null"']),
          );
          expect(typeof schema.description, `${tool.name}.${name}`).toBe("string");
          continue;
        }
        expect(jsonType(schema), `${tool.name}.${name}`).toBe(
          OBJECT_PARAMETERS.has(name)
            ? "object"
            : ARRAY_PARAMETERS.has(name)
              ? "array"
              : INTEGER_PARAMETERS.has(name)
                ? "integer"
                : "string",
        );
        expect(typeof schema.description, `${tool.name}.${name}`).toBe("string");
        expect(schema.default, `${tool.name}.${name}`).toEqual(DEFAULTS[name]);
      }
    }
  });

  const badArguments: [string, Record<string, unknown> | undefined, string][] = [
    ["stratum_validate", {}, "spec: missing required argument"],
    ["stratum_validate", undefined, "spec: missing required argument"],
    ["stratum_validate", { spec: 5 }, "spec: expected string, got integer"],
    ["stratum_validate", { spec: 1.5 }, "spec: expected string, got number"],
    ["stratum_validate", { spec: null }, "spec: expected string, got null"],
    ["stratum_plan", { spec: "x", flow: "main", inputs: "{}" }, "inputs: expected object, got string"],
    ["stratum_plan", { spec: "x" }, "flow: missing required argument"],
    ["stratum_step_done", { flow_id: "f", step_id: "s", result: [1] }, "result: expected object, got array"],
    ["stratum_step_done", { flow_id: 7, step_id: "s", result: {} }, "flow_id: expected string, got integer"],
    ["stratum_step_done", { flow_id: "f", step_id: "s" }, "result: missing required argument"],
    [
      "stratum_gate_resolve",
      { flow_id: "f", step_id: "g", outcome: "approve", resolved_by: "human" },
      "rationale: missing required argument",
    ],
    [
      "stratum_iteration_report",
      { flow_id: "f", step_id: "s", result: true },
      "result: expected object, got boolean",
    ],
    ["stratum_list_workflows", { workflows_dir: ["."] }, "workflows_dir: expected string, got array"],
    ["stratum_draft_pipeline", { draft: "{}" }, "draft: expected object, got string"],
  ];

  it.each(badArguments)("%s %j → invalid_arguments (isError)", async (name, args, message) => {
    const result = await client.callTool({ name, ...(args === undefined ? {} : { arguments: args }) });
    expect(result).toEqual({
      content: [{ type: "text", text: invalidArgumentsText(message) }],
      structuredContent: { status: "error", error_type: "invalid_arguments", message },
      isError: true,
    });
  });

  it("answers a documented error as an ordinary result (isError false)", async () => {
    const result = await client.callTool({ name: "stratum_audit", arguments: { flow_id: "nope" } });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: `{\n  "status": "error",\n  "error_type": "flow_not_found",\n  "message": "No active flow with id 'nope'"\n}`,
        },
      ],
      structuredContent: {
        status: "error",
        error_type: "flow_not_found",
        message: "No active flow with id 'nope'",
      },
      isError: false,
    });
  });

  it("rejects an unknown tool with a JSON-RPC invalid-params error", async () => {
    await expect(client.callTool({ name: "stratum_judge_all", arguments: {} })).rejects.toThrow(
      "MCP error -32602: Unknown tool: stratum_judge_all",
    );
  });

  it("keeps float kind from the arguments through evaluation, storage and the text content", async () => {
    const problems: string[] = [];
    const plan = await callTool(
      client,
      "stratum_plan",
      { spec: FLOAT_SPEC, flow: "main", inputs: dictFromRecord({ weight: new PyFloat(2) }) },
      problems,
    );
    expect(plan.text).toContain(`"inputs": {\n    "weight": 2.0\n  }`);
    const flowId = plan.response.flow_id as string;
    const step = { flow_id: flowId, step_id: "rate" };

    // An int 1 fails the ensure (str(1) is '1'): the server did not turn it into a float.
    const asInt = await callTool(
      client,
      "stratum_step_done",
      { ...step, result: dictFromRecord({ score: 1 }) },
      problems,
    );
    expect(asInt.response.status).toBe("ensure_failed");

    const asFloat = await callTool(
      client,
      "stratum_step_done",
      { ...step, result: dictFromRecord({ score: new PyFloat(1) }) },
      problems,
    );
    expect(asFloat.response.status).toBe("complete");
    expect(asFloat.text).toContain(`"output": {\n    "score": 1.0\n  }`);

    const flowFile = readFileSync(join(home.path, "flows", `${flowId}.json`), "utf8");
    expect(flowFile).toContain(`"score": 1.0`);
    const audit = await callTool(client, "stratum_audit", { flow_id: flowId }, problems);
    expect(audit.text).toContain(`"status": "complete"`);
    expect(problems).toEqual([]);
  });

  it("answers the same over the adapter as the tool text says (structuredContent = text)", async () => {
    const api = new McpStratumApi(async () => client);
    const verdict = wireToPlain(await api.validate({ spec: FLOAT_SPEC }));
    expect(verdict).toEqual({ valid: true, errors: [], warnings: [] });
    expect(api.problems).toEqual([]);
  });
});

describe("stratum-mcp at the line level", () => {
  it("writes nothing but JSON-RPC on stdout, answers bad lines with errors and keeps serving", async () => {
    const home = tempDir("stratum-mcp-lines-");
    const session = new RawSession({ cwd: home.path, home: home.path });
    try {
      const init = await session.initialize();
      expect(init.result?.serverInfo).toEqual({ name: "stratum-mcp", version: "0.1.0" });
      expect(init.result?.protocolVersion).toBe(PROTOCOL_VERSION);

      session.writeLine("this is not json");
      expect(await session.next((m) => m.error?.code === -32700)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: "Parse error: the line is not JSON" },
      });
      session.writeLine(`{"id": 41, "hello": "world"}`);
      expect(await session.next((m) => m.id === 41)).toEqual({
        jsonrpc: "2.0",
        id: 41,
        error: { code: -32600, message: "Invalid Request" },
      });
      session.writeLine("{");
      session.writeLine("   ");

      const list = await session.request(1, "tools/list");
      expect(list.result?.tools).toHaveLength(25);
      expect(await session.request(5, "tools/call", { name: "nope", arguments: {} })).toEqual({
        jsonrpc: "2.0",
        id: 5,
        error: { code: -32602, message: "Unknown tool: nope" },
      });

      // A run whose evaluation fails (ZeroDivisionError in an ensure) and a spec with errors.
      const spec = FLOAT_SPEC.replace(`"str(result.score) == '1.0'"`, `"result.score / 0 > 1"`);
      const plan = await session.request(2, "tools/call", {
        name: "stratum_plan",
        arguments: { spec, flow: "main", inputs: { weight: 1 } },
      });
      const flowId = structured(plan).flow_id;
      const done = await session.request(3, "tools/call", {
        name: "stratum_step_done",
        arguments: { flow_id: flowId, step_id: "rate", result: { score: 2 } },
      });
      expect(structured(done).status).toBe("ensure_failed");
      const broken = await session.request(4, "tools/call", {
        name: "stratum_plan",
        arguments: { spec: "version: [", flow: "main" },
      });
      expect(structured(broken).status).toBe("error");

      expect(await session.closeInput()).toBe(0);
      expect(session.lines.length).toBeGreaterThanOrEqual(7);
      for (const line of session.lines) {
        const message = JSON.parse(line) as Record<string, unknown>;
        expect(message.jsonrpc, line).toBe("2.0");
        expect("result" in message || "error" in message || "method" in message, line).toBe(true);
      }
      expect(unexpectedStderr(session.stderr)).toBe("");
    } finally {
      await session.kill();
      home.dispose();
    }
  });

  it("exits with 0 when standard input closes, before and after initialisation", async () => {
    const home = tempDir("stratum-mcp-eof-");
    try {
      const idle = new RawSession({ cwd: home.path, home: home.path });
      expect(await idle.closeInput()).toBe(0);
      expect(idle.lines).toEqual([]);

      const initialised = new RawSession({ cwd: home.path, home: home.path });
      await initialised.initialize();
      expect(await initialised.closeInput()).toBe(0);
      expect(unexpectedStderr(initialised.stderr)).toBe("");
    } finally {
      home.dispose();
    }
  });

  it("answers a call still in progress when standard input closes, then exits", async () => {
    const home = tempDir("stratum-mcp-eof-pending-");
    const session = new RawSession({ cwd: home.path, home: home.path });
    try {
      await session.initialize();
      const plan = await session.request(1, "tools/call", {
        name: "stratum_plan",
        arguments: { spec: FLOAT_SPEC, flow: "main", inputs: { weight: 1 } },
      });
      const flowId = structured(plan).flow_id as string;
      // Another process holds the flow's lock: the call waits for it (2 s, docs/reference/runtime.md §14.3) and is still
      // running when the client closes the pipe; it must still be answered.
      const flowsDir = join(home.path, "flows");
      writeFileSync(join(flowsDir, `${flowId}.json.lock`), "1 another-process\n");
      session.send({
        id: 2,
        method: "tools/call",
        params: {
          name: "stratum_step_done",
          arguments: { flow_id: flowId, step_id: "rate", result: { score: 1 } },
        },
      });
      expect(await session.closeInput()).toBe(0);
      const answer = session.lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((m) => m.id === 2);
      expect(answer?.result).toMatchObject({
        structuredContent: {
          status: "error",
          error_type: "state_locked",
          message: `Flow '${flowId}' is locked by another process; retry the call`,
        },
        isError: false,
      });
      expect(readdirSync(flowsDir).sort()).toEqual([`${flowId}.json`, `${flowId}.json.lock`]);
    } finally {
      await session.kill();
      home.dispose();
    }
  });
});

/**
 * A parameter's JSON type: its `type`, or for one that may also be null (the reference's
 * `Optional[...] = None` parameters of stratum_agent_run) the other member of its `anyOf`.
 */
function jsonType(schema: Record<string, unknown>): unknown {
  const types = Array.isArray(schema.type)
    ? (schema.type as unknown[])
    : ((schema.anyOf ?? []) as Record<string, unknown>[]).map((m) => m.type);
  return types.length === 2 && types.includes("null") ? types.find((t) => t !== "null") : schema.type;
}
