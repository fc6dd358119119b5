// MCP over a byte stream pair (stdio): one JSON-RPC message per line (docs/reference/runtime.md §16.1). Like the
// SDK's stdio transport, plus what a drop-in server needs:
// - a `tools/call` request is parsed once, kind-preservingly (request-line.ts), and its decoded
//   arguments are kept with the message object handed to the server (never looked up by id);
// - a line that is not JSON or not a JSON-RPC message is answered with a JSON-RPC error instead of
//   being dropped;
// - a request reusing the id of a request still in progress is answered with `-32600` and never
//   run (JSON-RPC 2.0 and MCP make the id unique among a client's requests: two answers with one
//   id could not be told apart), and the request in progress is not disturbed;
// - a request whose parameters `screen` rejects is answered with that error;
// - a message other than a tools/call nested deeper than MAX_VALUE_DEPTH is refused (-32600) or,
//   without an id, dropped;
// - a client's response that is malformed or too deep ends the server's request it answers with
//   an error (the request would otherwise wait out its time limit);
// - no size limit below 256 MiB per message (a large spec must fit).
// When the input ends, the transport closes only once every request already received has been
// answered: a client that writes its calls and then closes the pipe (`… | stratum-mcp`) gets every
// answer, even for a call still waiting for a flow lock at that moment.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { MAX_VALUE_DEPTH, tooDeep, valueShape } from "../interpreter/index";
import type { PyValue } from "../stdlib/index";
import { parseRequestLine } from "./request-line";

const MAX_LINE_BYTES = 256 * 1024 * 1024;

export interface ByteInput {
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export interface ByteOutput {
  write(chunk: string): boolean;
  once(event: "drain", listener: () => void): unknown;
}

/** A JSON-RPC error a request is answered with instead of being handed to the server. */
export interface RequestRejection {
  readonly code: number;
  readonly message: string;
}

/** Checks a request before the server sees it: a rejection, or undefined to let it through. */
export type RequestScreen = (request: JSONRPCRequest) => RequestRejection | undefined;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;
  /** The decoded `params.arguments` of each `tools/call` message object handed to the server. */
  private readonly toolCalls = new WeakMap<object, PyValue | undefined>();
  /** JSON texts of the ids of requests received and not yet answered (nor cancelled). */
  private readonly unanswered = new Set<string>();
  private inputEnded = false;
  /** Set once the server is stopping: requests that arrive from then on are refused. */
  private stopping = false;
  /** Called whenever a request stops being unanswered. */
  private readonly answeredOne = new Set<() => void>();

  constructor(
    private readonly input: ByteInput,
    private readonly output: ByteOutput,
    private readonly screen?: RequestScreen,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", (chunk) => this.receive(chunk));
    this.input.on("end", () => {
      this.inputEnded = true;
      this.closeWhenAnswered();
    });
    this.input.on("error", (e) => this.onerror?.(e));
  }

  /**
   * The arguments of a `tools/call` request as its line decoded them, kind-preservingly: `message`
   * is the very object this transport handed to `onmessage` (the server's fallback handler receives
   * it unparsed). Keyed by the object, not by the id, so two requests never share arguments.
   */
  toolArguments(message: object): PyValue | undefined {
    return this.toolCalls.get(message);
  }

  /** Sends a message from the server; a response marks its request answered. */
  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
    if ("id" in message && !("method" in message)) this.settle(JSON.stringify(message.id));
  }

  /** The server is stopping (a signal): a request that arrives from now on is refused. */
  refuseNew(): void {
    this.stopping = true;
  }

  /** Resolves true once every request received has been answered (or cancelled), false after `ms`. */
  whenAnswered(ms: number): Promise<boolean> {
    if (this.unanswered.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.unanswered.size > 0) return;
        clearTimeout(timer);
        this.answeredOne.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.answeredOne.delete(check);
        resolve(false);
      }, ms);
      timer.unref();
      this.answeredOne.add(check);
    });
  }

  /** Answers every request still unanswered with this JSON-RPC error (the server stops without them). */
  answerUnanswered(code: number, message: string): void {
    for (const key of [...this.unanswered]) {
      this.reject(JSON.parse(key) as RequestId, code, message);
      this.settle(key);
    }
  }

  private settle(key: string): void {
    this.unanswered.delete(key);
    for (const check of [...this.answeredOne]) check();
    this.closeWhenAnswered();
  }

  private async write(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const text = `${JSON.stringify(message)}\n`;
    if (!this.output.write(text)) await new Promise<void>((resolve) => this.output.once("drain", resolve));
  }

  private closeWhenAnswered(): void {
    if (this.inputEnded && this.unanswered.size === 0) void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.onclose?.();
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.pending).toString("utf8").replace(/\r$/, "");
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
      if (line.trim() !== "") this.handleLine(line);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.pending = [];
        this.pendingBytes = 0;
        this.reject(null, -32600, `Message larger than ${MAX_LINE_BYTES} bytes`);
      }
    }
  }

  private handleLine(line: string): void {
    const parsedLine = parseRequestLine(line);
    if (parsedLine === null) {
      this.reject(null, -32700, "Parse error: the line is not JSON");
      return;
    }
    const json = parsedLine.json;
    const fast = plainRequest(json);
    const parsed = fast === undefined ? JSONRPCMessageSchema.safeParse(json) : { success: true, data: fast };
    if (!parsed.success) {
      const id =
        typeof json === "object" && json !== null && "id" in json ? (json as { id: unknown }).id : null;
      this.reject(typeof id === "string" || typeof id === "number" ? id : null, -32600, "Invalid Request");
      this.failResponse(json);
      return;
    }
    const message = parsed.data;
    // Only a tools/call carries user values, and the tool names the argument past the limits. Any
    // other message never needs that depth, and the SDK's recursive code (an error text that
    // stringifies a stray response) would overflow the stack on it and end the process.
    if (!("method" in message && message.method === "tools/call")) {
      const { depth } = valueShape(json);
      if (depth > MAX_VALUE_DEPTH) {
        if ("method" in message && "id" in message) {
          this.reject(message.id, -32600, `Invalid Request: ${tooDeep(depth)}`);
        }
        this.failResponse(json);
        return; // a notification or a response: nothing to answer
      }
    }
    if ("method" in message && "id" in message) {
      const key = JSON.stringify(message.id);
      if (this.unanswered.has(key)) {
        this.reject(
          message.id,
          -32600,
          `Invalid Request: the id ${key} is already used by a request in progress; this request was not run`,
        );
        return;
      }
      if (this.stopping) {
        this.reject(message.id, -32000, "Service Unavailable: the server is stopping");
        return;
      }
      const rejection = this.screen?.(message as JSONRPCRequest);
      if (rejection !== undefined) {
        this.reject(message.id, rejection.code, rejection.message);
        return;
      }
      this.unanswered.add(key);
    }
    // A cancelled request gets no answer (MCP cancellation), so it must not hold the close back.
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        this.settle(JSON.stringify(requestId));
      }
    }
    if (
      "toolArguments" in parsedLine &&
      "method" in message &&
      message.method === "tools/call" &&
      "id" in message
    ) {
      this.toolCalls.set(message, parsedLine.toolArguments);
    }
    this.onmessage?.(message);
    this.closeWhenAnswered();
  }

  /**
   * A response of the client (to one of the server's requests, an elicitation) that cannot be
   * handed over as it is reaches the server as an error response with its id: the request then
   * ends at once instead of waiting out its time limit. A stray id is the SDK's to ignore.
   */
  private failResponse(json: unknown): void {
    if (typeof json !== "object" || json === null || Array.isArray(json) || "method" in json) return;
    if (!("result" in json || "error" in json)) return;
    const id = (json as { id?: unknown }).id;
    if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) return;
    this.onmessage?.({
      jsonrpc: "2.0",
      id,
      error: { code: -32600, message: "Invalid response: not a JSON-RPC response the server can read" },
    });
  }

  /**
   * Answers a message the server never sees. Written directly, not through `send`: the id may be
   * that of a request in progress, which stays unanswered until the server answers it.
   */
  private reject(id: RequestId | null, code: number, message: string): void {
    void this.write({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}

/**
 * The message itself when it is a request the SDK's JSON-RPC schema surely accepts as it is — only
 * the keys `jsonrpc` ("2.0"), `id` (a string or a safe integer), `method` (a string) and `params`
 * (an object without `_meta` or an own `__proto__`) — so the common case skips the schema's ~0.1 ms (every tool
 * call is measured against the transport floor). Undefined for anything else: the schema decides.
 */
export function plainRequest(json: unknown): ParsedRequest | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  for (const key in json) {
    if (key !== "jsonrpc" && key !== "id" && key !== "method" && key !== "params") return undefined;
  }
  const m = json as Record<string, unknown>;
  if (m.jsonrpc !== "2.0" || typeof m.method !== "string") return undefined;
  const id = m.id;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) return undefined;
  const params = m.params;
  if (params !== undefined) {
    if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
    // the schema checks `_meta`, and drops an own `__proto__` key
    if (Object.hasOwn(params, "_meta") || Object.hasOwn(params, "__proto__")) return undefined;
  }
  return m as ParsedRequest;
}

/** A request as the SDK's JSON-RPC schema gives it. */
type ParsedRequest = Extract<
  NonNullable<ReturnType<typeof JSONRPCMessageSchema.parse>>,
  { method: string; id: string | number }
>;
