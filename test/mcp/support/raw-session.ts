// A line-level session with the built stratum-mcp, without an MCP client in between: the test
// writes exact lines (garbage included) and sees every line of standard output, so protocol
// hygiene (nothing but JSON-RPC on stdout) can be asserted.
import { type ChildProcess, spawn } from "node:child_process";
import { ensureBundle } from "../../cli/run-cli";
import { MCP_BIN } from "./server";

export const PROTOCOL_VERSION = "2025-06-18";

export interface RpcMessage {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
  readonly method?: string;
}

export class RawSession {
  /** Every stdout line so far, as written. */
  readonly lines: string[] = [];
  private stderrText = "";
  private buffered = "";
  private waiters: { test: (m: RpcMessage) => boolean; resolve: (m: RpcMessage) => void }[] = [];
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(options: { readonly cwd: string; readonly home: string }) {
    ensureBundle();
    this.child = spawn(process.execPath, [MCP_BIN], {
      cwd: options.cwd,
      env: { ...process.env, STRATUM_HOME: options.home },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk.toString("utf8")));
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrText += chunk.toString("utf8");
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Writes one line (a newline is appended). */
  writeLine(text: string): void {
    this.child.stdin?.write(`${text}\n`);
  }

  send(message: Record<string, unknown>): void {
    this.writeLine(JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  /** The next (or an already received) message that `test` accepts. */
  next(test: (m: RpcMessage) => boolean): Promise<RpcMessage> {
    const seen = this.lines.map(parseLine).find((m) => m !== undefined && test(m));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Sends a request and waits for the response with its id. */
  async request(
    id: number | string,
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<RpcMessage> {
    this.send({ id, method, params });
    return this.next((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  }

  /** initialize + notifications/initialized. */
  async initialize(): Promise<RpcMessage> {
    const reply = await this.request(0, "initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "raw-session", version: "0.0.0" },
    });
    this.send({ method: "notifications/initialized" });
    return reply;
  }

  /** Closes standard input and waits for the exit code. */
  closeInput(): Promise<number | null> {
    this.child.stdin?.end();
    return this.exited;
  }

  kill(): Promise<number | null> {
    this.child.kill("SIGKILL");
    return this.exited;
  }

  private receive(text: string): void {
    const parts = (this.buffered + text).split("\n");
    this.buffered = parts.pop() ?? "";
    for (const line of parts) {
      this.lines.push(line);
      const message = parseLine(line);
      if (message === undefined) continue;
      const waiter = this.waiters.find((w) => w.test(message));
      if (waiter !== undefined) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(message);
      }
    }
  }
}

function parseLine(line: string): RpcMessage | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as RpcMessage) : undefined;
  } catch {
    return undefined;
  }
}
