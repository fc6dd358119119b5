// The MCP server (runtime.md §16): tools only, server name `stratum-mcp`. Each call returns one text
// item with the response object as JSON (2-space indentation, exactly as Python's json.dumps writes
// it: floats stay floats) and the same object as structuredContent; `isError` is false for every
// documented response, `status: "error"` ones included, and true only for invalid arguments.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type RequestId,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { StratumApi } from "../interpreter/api";
import { encodeWire, wireToPlain } from "../interpreter/wire/encode";
import type { Response } from "../interpreter/wire/wire";
import { dictGetStr } from "../stdlib/values/dict";
import { parseJson } from "../stdlib/values/json";
import { PyDict, type PyValue } from "../stdlib/values/value";
import { decodeArguments } from "./arguments";
import { TOOLS, type ToolDefinition } from "./tools";

export interface McpServerOptions {
  readonly api: StratumApi;
  readonly version: string;
  /** The raw JSON text of a tools/call request, when the transport kept it. */
  readonly rawCall?: (id: RequestId) => string | undefined;
}

const BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

/** The tool list of tools/list, with JSON Schemas generated from the zod schemas. */
export function toolList(): Tool[] {
  return TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.schema, { io: "input" }) as Tool["inputSchema"],
  }));
}

export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: "stratum-mcp", version: options.version },
    { capabilities: { tools: {} } },
  );
  const tools = toolList();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = BY_NAME.get(request.params.name);
    if (tool === undefined)
      throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const decoded = decodeArguments(
      tool,
      rawArguments(options.rawCall?.(extra.requestId)),
      request.params.arguments,
    );
    if (!decoded.ok) return toolResult(decoded.error, true);
    return toolResult(await tool.call(options.api, decoded.args), false);
  });
  return server;
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

/** `params.arguments` of a raw request text, decoded kind-preservingly; undefined if unavailable. */
function rawArguments(raw: string | undefined): PyValue | undefined {
  if (raw === undefined) return undefined;
  try {
    const message = parseJson(raw);
    const params = message instanceof PyDict ? dictGetStr(message, "params") : undefined;
    return params instanceof PyDict ? dictGetStr(params, "arguments") : undefined;
  } catch {
    return undefined;
  }
}
