// One session of the HTTP server: an MCP Server of its own on the SDK's Streamable HTTP transport.
// The transport parses each message again (a new object), so the arguments the body's decoding
// kept kind-preserving (request-body.ts) are handed over by the request's id: registered just
// before the transport handles the POST, taken when the transport hands the message to the server,
// and then found by that message object, as over stdio (../line-transport.ts).
// The session also keeps the ids of its requests in progress, from the POST until their answer is
// sent (or they are cancelled): the transport routes an answer to the stream of the last request
// with its id, so a second request with the id of one in progress would leave the first without
// an answer for ever. Such a request is refused instead, as over stdio.
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
  /** JSON texts of the ids of requests received and not yet answered (nor cancelled). */
  private readonly running = new Set<string>();
  /** Ids of requests of the POSTs being handed over that reached the server. */
  private readonly delivered = new Set<string>();

  constructor(options: Omit<McpServerOptions, "toolArguments">, onSession: (id: string) => void) {
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: onSession,
    });
    this.server = createMcpServer({ ...options, toolArguments: (request) => this.toolCalls.get(request) });
  }

  /** Connects the server; from then on every message passes `take` in, and answers `sent` out. */
  async start(): Promise<void> {
    await this.server.connect(this.transport);
    const route = this.transport.onmessage;
    this.transport.onmessage = (message, extra) => {
      this.take(message);
      route?.(message, extra);
    };
    const send = this.transport.send.bind(this.transport);
    this.transport.send = async (message, options) => {
      try {
        await send(message, options);
      } finally {
        if ("id" in message && !("method" in message)) this.running.delete(JSON.stringify(message.id));
      }
    };
  }

  /**
   * Hands a POST whose body is already read and decoded to the transport. False when it is a
   * request with the id of one in progress (it is not run).
   */
  async post(
    req: IncomingMessage,
    res: ServerResponse,
    json: unknown,
    toolArguments: { readonly value: PyValue | undefined } | null,
  ): Promise<boolean> {
    const key = requestKey(json);
    if (key !== null) {
      if (this.running.has(key)) return false;
      this.running.add(key);
      if (toolArguments !== null) this.pending.set(key, toolArguments.value);
    }
    try {
      await this.transport.handleRequest(req, res, json);
    } finally {
      if (key !== null) {
        this.pending.delete(key);
        // Refused by the transport before the server saw it (a missing header, say): no answer will come.
        if (!this.delivered.delete(key)) this.running.delete(key);
      }
    }
    return true;
  }

  /**
   * Answers every request received and not yet answered with a JSON-RPC error (a stopping server,
   * once it has cancelled what it could): each gets its answer on its own stream, which then ends.
   * Resolves to how many were answered.
   */
  async answerRunning(code: number, message: string): Promise<number> {
    const ids = [...this.running].map((key) => JSON.parse(key) as string | number);
    await Promise.all(
      ids.map((id) =>
        this.transport.send({ jsonrpc: "2.0", id, error: { code, message } }).catch(() => undefined),
      ),
    );
    return ids.length;
  }

  async close(): Promise<void> {
    await this.server.close();
  }

  private take(message: JSONRPCMessage): void {
    if (!("method" in message)) return;
    if ("id" in message) {
      const key = JSON.stringify(message.id);
      this.delivered.add(key);
      if (message.method === "tools/call" && this.pending.has(key)) {
        this.toolCalls.set(message, this.pending.get(key));
        this.pending.delete(key);
      }
    } else if (message.method === "notifications/cancelled") {
      // A cancelled request gets no answer (MCP cancellation).
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        this.running.delete(JSON.stringify(requestId));
      }
    }
  }
}

/** The JSON text of a request's id; null for a notification or a response. */
function requestKey(json: unknown): string | null {
  if (typeof json !== "object" || json === null || !("id" in json) || !("method" in json)) return null;
  return JSON.stringify((json as { id: unknown }).id);
}
