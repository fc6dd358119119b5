// MCP over a byte stream pair (stdio): one JSON-RPC message per line (runtime.md §16.1). Like the
// SDK's stdio transport, plus what a drop-in server needs: the raw text of every `tools/call`
// request is kept until its handler takes it, so arguments can be decoded kind-preservingly; a line
// that is not JSON or not a JSON-RPC message is answered with a JSON-RPC error instead of being
// dropped; no size limit below 256 MiB per message (a large spec must fit). When the input ends, the
// transport closes only once every request already received has been answered: a client that
// writes its calls and then closes the pipe (`… | stratum-mcp`) gets every answer, even for a call
// still waiting for a flow lock at that moment.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

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

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;
  private readonly rawCalls = new Map<string, string>();
  /** JSON texts of the ids of requests received and not yet answered. */
  private readonly unanswered = new Set<string>();
  private inputEnded = false;

  constructor(
    private readonly input: ByteInput,
    private readonly output: ByteOutput,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", (chunk) => this.receive(chunk));
    this.input.on("end", () => {
      this.inputEnded = true;
      this.closeWhenAnswered();
    });
    this.input.on("error", (e) => this.onerror?.(e));
  }

  /** The raw JSON text of a `tools/call` request (once: it is forgotten when taken). */
  takeRawCall(id: RequestId): string | undefined {
    const key = JSON.stringify(id);
    const raw = this.rawCalls.get(key);
    this.rawCalls.delete(key);
    return raw;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const text = `${JSON.stringify(message)}\n`;
    if (!this.output.write(text)) await new Promise<void>((resolve) => this.output.once("drain", resolve));
    if ("id" in message && !("method" in message)) {
      this.unanswered.delete(JSON.stringify(message.id));
      this.closeWhenAnswered();
    }
  }

  private closeWhenAnswered(): void {
    if (this.inputEnded && this.unanswered.size === 0) void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.rawCalls.clear();
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
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.reject(null, -32700, "Parse error: the line is not JSON");
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id =
        typeof json === "object" && json !== null && "id" in json ? (json as { id: unknown }).id : null;
      this.reject(typeof id === "string" || typeof id === "number" ? id : null, -32600, "Invalid Request");
      return;
    }
    const message = parsed.data;
    if ("method" in message && "id" in message) this.unanswered.add(JSON.stringify(message.id));
    // A cancelled request gets no answer (MCP cancellation), so it must not hold the close back.
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        this.unanswered.delete(JSON.stringify(requestId));
      }
    }
    if ("method" in message && message.method === "tools/call" && "id" in message) {
      this.rawCalls.set(JSON.stringify(message.id), line);
    }
    this.onmessage?.(message);
    this.closeWhenAnswered();
  }

  private reject(id: RequestId | null, code: number, message: string): void {
    void this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
