// The MCP server (docs/reference/runtime.md §16): tools only, server name `stratum-mcp`. Each call returns one text
// item with the response object as JSON (2-space indentation, exactly as Python's json.dumps writes
// it: floats stay floats) and the same object as structuredContent; `isError` is false for every
// documented response, `status: "error"` ones included, and true only for invalid arguments.
// `tools/call` is answered by the server's fallback handler, which gets the request object exactly
// as the transport handed it over (no SDK parsing): its decoded arguments are found by that object, and
// parameters of the wrong shape give `invalid_arguments` or a short JSON-RPC error, never a zod
// dump. `screenRequest` gives the other methods' bad parameters the same short error before the
// SDK's own parsing could throw one.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AgentRuns } from "../host/index";
import type { Response, StratumApi } from "../interpreter/index";
import { encodeWire, wireToPlain } from "../interpreter/index";
import type { PyValue } from "../stdlib/index";
import { decodeArguments, describeIssue, jsonKind } from "./arguments";
import { type CallEvents, EVENTS_META_KEY, wantsEvents } from "./call-events";
import { CheckJobs } from "./check-jobs";
import { FuzzJobs } from "./fuzz-jobs";
import type { RequestRejection } from "./line-transport";
import { outputSchema } from "./output-schemas";
import { refusedToolAnswer } from "./refused-tools";
import { TOOLS, type ToolDefinition } from "./tools";

export interface McpServerOptions {
  readonly api: StratumApi;
  readonly version: string;
  /**
   * A tools/call request's arguments decoded kind-preservingly from its line (the message object
   * the transport handed over); the request's `params.arguments` is then their plain form.
   */
  readonly toolArguments?: (request: object) => PyValue | undefined;
  /**
   * The engine's events per call (its observer must be `events.observer`): a call whose
   * `params._meta` asks for them gets them in its result's `_meta`. Without it none is sent.
   */
  readonly events?: CallEvents;
  /** Where `stratum_fuzz` jobs run (default: a FuzzJobs of its own, fuzz-jobs.ts). */
  readonly fuzz?: FuzzJobs;
  /** Where the checks of big specs run (default: a CheckJobs of its own, check-jobs.ts). */
  readonly checks?: CheckJobs;
  /** The agent runs of stratum_agent_run (default: none; that tool then answers agent_run_unavailable). */
  readonly agents?: AgentRuns;
}

const BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

/**
 * The tool list of tools/list: input schemas generated from the zod schemas, output schemas from
 * the answer shapes (output-schemas.ts), titles and annotations (tool-annotations.ts).
 */
export function toolList(): Tool[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: z.toJSONSchema(t.schema, { io: "input" }) as Tool["inputSchema"],
    outputSchema: outputSchema(t.answers),
    annotations: { ...t.annotations },
  }));
}

export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: "stratum-mcp", version: options.version },
    { capabilities: { tools: {} } },
  );
  const tools = toolList();
  const context = {
    fuzz: options.fuzz ?? new FuzzJobs(),
    checks: options.checks ?? new CheckJobs(),
    agents: options.agents ?? null,
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  // Not setRequestHandler: the SDK would parse the request first (a new object, so the decoded
  // arguments could only be found by id) and answer a bad shape with -32603 and its zod issue dump.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== "tools/call") throw protocolError(ErrorCode.MethodNotFound, "Method not found");
    const params = request.params as unknown;
    if (!isRecord(params)) throw invalidParams(`params: expected object, got ${jsonKind(params)}`);
    const name = params.name;
    if (typeof name !== "string") {
      throw invalidParams(
        name === undefined ? "params.name: missing" : `params.name: expected string, got ${jsonKind(name)}`,
      );
    }
    const tool = BY_NAME.get(name);
    if (tool === undefined) {
      const refused = refusedToolAnswer(name);
      if (refused !== null) return toolResult(refused, false);
      throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    const decoded = decodeArguments(tool, options.toolArguments?.(request), params.arguments);
    if (!decoded.ok) return toolResult(decoded.error, true);
    const events = options.events;
    // The request's own signal: a client's notifications/cancelled for it stops what it started.
    const call = { ...context, signal: extra.signal };
    if (events === undefined || !wantsEvents(params._meta)) {
      return answered(await tool.call(options.api, decoded.args, call));
    }
    const collected = await events.collect(() => tool.call(options.api, decoded.args, call));
    return { ...answered(collected.value), _meta: { [EVENTS_META_KEY]: collected.events } };
  };
  return server;
}

/** The SDK's schemas of the requests it handles itself (tools/call is ours, see above). */
const SDK_REQUESTS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
]);

/**
 * A request whose parameters the SDK would reject: `-32602 Invalid params: <path>: <problem>`
 * (the SDK would answer -32603 with its zod issue dump).
 */
export function screenRequest(request: JSONRPCRequest): RequestRejection | undefined {
  const schema = SDK_REQUESTS.get(request.method);
  if (schema === undefined) return undefined;
  const checked = schema.safeParse(request);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0];
  return issue === undefined
    ? invalidParamsRejection("params: invalid")
    : invalidParamsRejection(describeIssue(issue, request));
}

function invalidParamsRejection(detail: string): RequestRejection {
  return { code: ErrorCode.InvalidParams, message: `Invalid params: ${detail}` };
}

function invalidParams(detail: string): Error & { readonly code: number } {
  const { code, message } = invalidParamsRejection(detail);
  return protocolError(code, message);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A tool's answer: `isError` only for invalid_arguments, which a tool may also find past its schema
 * (an argument the schema cannot judge, such as a directory outside the workspace).
 */
function answered(response: Response): CallToolResult {
  return toolResult(response, response.error_type === "invalid_arguments");
}

function toolResult(response: Response, isError: boolean): CallToolResult {
  return {
    content: [{ type: "text", text: encodeWire(response, { indent: 2 }) }],
    structuredContent: wireToPlain(response) as Record<string, unknown>,
    isError,
  };
}

/**
 * A JSON-RPC error answer with this code and message. (An McpError would put its own
 * "MCP error <code>: " prefix into the message sent, and the client adds it once more.)
 */
function protocolError(code: number, message: string): Error & { readonly code: number } {
  return Object.assign(new Error(message), { code });
}
