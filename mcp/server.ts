// The MCP server (docs/reference/runtime.md §16): tools, and (given their options) resources and prompts
// (resources/, prompts.ts), server name `stratum-mcp`. Each call returns one text
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
  GetPromptRequestSchema,
  InitializeRequestSchema,
  type JSONRPCRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  type Tool,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type AgentRuns, DEFAULT_GATE_ASK_TIMEOUT_S, type GateSetting } from "../host/index";
import type { Response, StratumApi } from "../interpreter/index";
import { encodeWire, eventToJson, wireToPlain } from "../interpreter/index";
import type { PyValue } from "../stdlib/index";
import { decodeArguments, describeIssue, jsonKind } from "./arguments";
import { type CallEvents, EVENTS_META_KEY, wantsEvents } from "./call-events";
import { callProgress } from "./call-progress";
import { CheckJobs } from "./check-jobs";
import { ClientLog } from "./client-log";
import { FuzzJobs } from "./fuzz-jobs";
import { elicitorFor } from "./gate-ask-tool";
import { gateHintText, humanGateRefusal, withGateHint } from "./human-gates";
import type { RequestRejection } from "./line-transport";
import { outputSchema } from "./output-schemas";
import { registerPrompts, type SkillText } from "./prompts";
import { refusedToolAnswer } from "./refused-tools";
import { RESOURCES_CAPABILITY, type ResourceOptions, registerResources } from "./resources/register";
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
  /** STRATUM_GATES and the wait of stratum_gate_ask (default: any, DEFAULT_GATE_ASK_TIMEOUT_S). */
  readonly gates?: GateSetting;
  /** The flows and the spec schema as resources (resources/register.ts); without it, no resources. */
  readonly resources?: ResourceOptions;
  /** The bundled skills as prompts (prompts.ts); without them, no prompts. */
  readonly prompts?: readonly SkillText[];
  /** The server's log, also sent to the client as notifications/message (default: to no one). */
  readonly log?: ClientLog;
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
    {
      capabilities: {
        tools: {},
        logging: {},
        ...(options.resources === undefined ? {} : { resources: RESOURCES_CAPABILITY }),
        ...(options.prompts === undefined ? {} : { prompts: {} }),
      },
    },
  );
  const log = options.log ?? new ClientLog({ stderr: () => undefined, programName: "stratum-mcp" });
  log.attach(server);
  const subscriptions = options.resources === undefined ? null : registerResources(server, options.resources);
  if (options.prompts !== undefined) registerPrompts(server, options.prompts);
  const tools = toolList();
  const context = {
    fuzz: options.fuzz ?? new FuzzJobs(),
    checks: options.checks ?? new CheckJobs(),
    agents: options.agents ?? null,
  };
  const gates = options.gates ?? { mode: "any", askTimeoutMs: DEFAULT_GATE_ASK_TIMEOUT_S * 1000 };
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
    if (tool.name === "stratum_gate_resolve" && gates.mode === "human")
      return toolResult(humanGateRefusal(), false);
    const decoded = decodeArguments(tool, options.toolArguments?.(request), params.arguments);
    if (!decoded.ok) return toolResult(decoded.error, true);
    const events = options.events;
    const elicit = elicitorFor(server.getClientCapabilities(), extra, gates.askTimeoutMs);
    const hint = gateHintText(elicit !== null, gates.mode);
    // The request's own signal: a client's notifications/cancelled for it stops what it started.
    // A request with a progress token gets the progress of the tools that report any.
    const progress = callProgress(params._meta, extra.sendNotification, extra.signal);
    const call = {
      ...context,
      signal: extra.signal,
      gateAsk: { elicit, gates: gates.mode },
      ...(progress === undefined ? {} : { progress }),
    };
    const run = async (): Promise<Response> => {
      try {
        return await tool.call(options.api, decoded.args, call);
      } finally {
        progress?.finish();
        // A call may have changed a flow this session subscribed to.
        subscriptions?.changed();
      }
    };
    if (events === undefined || !wantsEvents(params._meta))
      return answered(withGateHint(noteCancelled(log, name, await run(), extra.signal), hint));
    const collected = await events.collect(run);
    return {
      ...answered(withGateHint(noteCancelled(log, name, collected.value, extra.signal), hint)),
      _meta: { [EVENTS_META_KEY]: collected.events.map(eventToJson) },
    };
  };
  return server;
}

/** The SDK's schemas of the requests it handles itself (tools/call is ours, see above). */
const SDK_REQUESTS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["resources/list", ListResourcesRequestSchema],
  ["resources/templates/list", ListResourceTemplatesRequestSchema],
  ["resources/read", ReadResourceRequestSchema],
  ["resources/subscribe", SubscribeRequestSchema],
  ["resources/unsubscribe", UnsubscribeRequestSchema],
  ["prompts/list", ListPromptsRequestSchema],
  ["prompts/get", GetPromptRequestSchema],
  ["logging/setLevel", SetLevelRequestSchema],
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

/**
 * A cancelled call is not answered (the SDK sends nothing for it): what it did is said in the log
 * instead, at `info` (the answer's message: a fuzz says the runs it made).
 */
function noteCancelled(log: ClientLog, name: string, response: Response, signal: AbortSignal): Response {
  if (signal.aborted) {
    const message =
      typeof response.message === "string" ? response.message : `answered ${String(response.status)}`;
    log.log("info", `${name} (cancelled by the client): ${message}`);
  }
  return response;
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
    // JSON data every transport can write: an integer beyond JSON's exact range is the nearest
    // number here, and exact in the text item.
    structuredContent: wireToPlain(response, { bigints: "number" }) as Record<string, unknown>,
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
