// One session of the HTTP server: an MCP Server of its own on the SDK's Streamable HTTP transport.
// The transport parses each message again (a new object), so the arguments the body's decoding
// kept kind-preserving (request-body.ts) are handed over by the request's id: registered just
// before the transport handles the POST, taken when the transport hands the message to the server,
// and then found by that message object, as over stdio (../line-transport.ts).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { PyValue } from "../../stdlib/index";
import type { McpServerOptions } from "../server";
import { createMcpServer } from "../server";

export class McpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** Decoded arguments of tools/call requests whose POST is being handed to the transport. */
  private readonly pending = new Map<string, PyValue | undefined>();
  /** The decoded arguments of each tools/call message object the server received. */
  private readonly toolCalls = new WeakMap<object, PyValue | undefined>();

  constructor(options: Omit<McpServerOptions, "toolArguments">, onSession: (id: string) => void) {
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: onSession,
    });
    this.server = createMcpServer({ ...options, toolArguments: (request) => this.toolCalls.get(request) });
  }

  /** Connects the server; from then on every message the transport routes passes `take`. */
  async start(): Promise<void> {
    await this.server.connect(this.transport);
    const route = this.transport.onmessage;
    this.transport.onmessage = (message, extra) => {
      this.take(message);
      route?.(message, extra);
    };
  }

  /**
   * Hands a POST whose body is already read and decoded to the transport. False when a request
   * with the same id is being handed over at this moment (the request is not run).
   */
  async post(
    req: IncomingMessage,
    res: ServerResponse,
    json: unknown,
    toolArguments: { readonly value: PyValue | undefined } | null,
  ): Promise<boolean> {
    const key = toolArguments === null ? null : idKey(json);
    if (key !== null) {
      if (this.pending.has(key)) return false;
      this.pending.set(key, toolArguments?.value);
    }
    try {
      await this.transport.handleRequest(req, res, json);
    } finally {
      if (key !== null) this.pending.delete(key);
    }
    return true;
  }

  async close(): Promise<void> {
    await this.server.close();
  }

  private take(message: JSONRPCMessage): void {
    if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) return;
    const key = JSON.stringify(message.id);
    if (!this.pending.has(key)) return;
    this.toolCalls.set(message, this.pending.get(key));
    this.pending.delete(key);
  }
}

function idKey(json: unknown): string | null {
  if (typeof json !== "object" || json === null || !("id" in json)) return null;
  return JSON.stringify((json as { id: unknown }).id);
}
