// A line-level session with the built stratum-mcp, without an MCP client in between: the test
// writes exact bytes (whole lines, several lines in one write, garbage, lines split across writes)
// and sees every line of standard output, so protocol hygiene (nothing but JSON-RPC on stdout),
// duplicate ids and hostile input can be asserted. Every wait has a deadline.
import { type ChildProcess, spawn } from "node:child_process";
import { ensureBundle } from "../../cli/run-cli";
import { MCP_BIN, unexpectedStderr } from "./server";

export const PROTOCOL_VERSION = "2025-06-18";

export interface RpcMessage {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly result?: {
    readonly content?: readonly { readonly type: string; readonly text: string }[];
    readonly structuredContent?: Record<string, unknown>;
    readonly isError?: boolean;
    readonly [key: string]: unknown;
  };
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** Where the server runs: its working directory and its STRATUM_HOME. */
export interface SessionPlace {
  readonly cwd: string;
  readonly home: string;
}

/** How the server process is started besides its place. */
export interface SessionOptions {
  /** More environment variables (OTEL_*, STRATUM_AGENT_COMMAND, for instance). */
  readonly env?: Readonly<Record<string, string>>;
  /** A lower limit of open descriptors (`ulimit -n` in a shell that then execs the server). */
  readonly fdLimit?: number;
}

export class RawSession {
  /** Every stdout line so far, as written. */
  readonly lines: string[] = [];
  /** The stdout lines that parse as JSON objects, in order. */
  readonly messages: RpcMessage[] = [];
  private stderrText = "";
  private buffered: string[] = [];
  private listeners: (() => void)[] = [];
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(place: SessionPlace, options: SessionOptions = {}) {
    ensureBundle();
    const [command, args] =
      options.fdLimit === undefined
        ? [process.execPath, [MCP_BIN]]
        : ["sh", ["-c", `ulimit -n ${options.fdLimit} && exec "$0" "$1"`, process.execPath, MCP_BIN]];
    this.child = spawn(command, args, {
      cwd: place.cwd,
      env: { ...process.env, STRATUM_HOME: place.home, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk.toString("utf8")));
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrText += chunk.toString("utf8");
    });
  }

  /** The server's process id (the shell of `fdLimit` execs the server, so it is the server's). */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Standard error without the hook-refresh notice of a first start (docs/reference/runtime.md §21.1). */
  get stderr(): string {
    return unexpectedStderr(this.stderrText);
  }

  /** Writes bytes exactly as given (one write). */
  write(text: string | Uint8Array): void {
    this.child.stdin?.write(text);
  }

  /** Writes one line (a newline is appended). */
  writeLine(text: string): void {
    this.write(`${text}\n`);
  }

  /** Writes one message as a line. */
  send(message: Record<string, unknown>): void {
    this.sendAll([message]);
  }

  /** Writes these messages as lines in one write, so the server reads them in one chunk. */
  sendAll(messages: readonly Record<string, unknown>[]): void {
    this.write(messages.map((m) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`).join(""));
  }

  /** Every answer (result or error) carrying this id so far. */
  answers(id: unknown): RpcMessage[] {
    return this.messages.filter(
      (m) => !("method" in m) && sameId(m.id, id) && (m.result !== undefined || m.error !== undefined),
    );
  }

  /** Waits until `test` holds for the messages received so far; fails after `ms`. */
  async until(test: () => boolean, what: string, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}; stdout:\n${this.lines.slice(-20).join("\n")}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.listeners.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The first message received (so far or later) that `test` accepts. */
  async next(test: (m: RpcMessage) => boolean, ms?: number): Promise<RpcMessage> {
    await this.until(() => this.messages.some(test), "a matching message", ms);
    return this.messages.find(test) as RpcMessage;
  }

  /** Sends one request (without `params` when undefined) and waits for its (first) answer. */
  async request(id: string | number, method: string, params?: unknown, ms?: number): Promise<RpcMessage> {
    this.send({ id, method, ...(params === undefined ? {} : { params }) });
    await this.until(() => this.answers(id).length > 0, `the answer to ${JSON.stringify(id)}`, ms);
    return this.answers(id)[0] as RpcMessage;
  }

  /** initialize + notifications/initialized; the answer to initialize. */
  async initialize(): Promise<RpcMessage> {
    const reply = await this.request("init", "initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "raw-session", version: "0.0.0" },
    });
    this.send({ method: "notifications/initialized" });
    return reply;
  }

  /** Closes standard input (the server answers what it has received, then exits). */
  closeInput(): Promise<number | null> {
    this.child.stdin?.end();
    return this.exited;
  }

  /** Sends the server process a signal (SIGTERM: how a supervisor stops it); resolves at once. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  kill(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    return this.exited;
  }

  private receive(text: string): void {
    // Only a chunk with a newline joins what came before: a long line in many chunks stays linear.
    if (!text.includes("\n")) {
      this.buffered.push(text);
      return;
    }
    const parts = [...this.buffered, text].join("").split("\n");
    this.buffered = [parts.pop() ?? ""];
    for (const line of parts) {
      this.lines.push(line);
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === "object" && value !== null) this.messages.push(value as RpcMessage);
      } catch {
        // not JSON: the tests assert on `lines`
      }
    }
    const listeners = this.listeners;
    this.listeners = [];
    for (const l of listeners) l();
  }
}

/** JSON-RPC id equality (1 and "1" differ). */
export function sameId(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The structuredContent of a tools/call answer (throws when it is not a tool result). */
export function toolContent(message: RpcMessage): Record<string, unknown> {
  const content = message.result?.structuredContent;
  if (content === undefined) throw new Error(`not a tool result: ${JSON.stringify(message)}`);
  return content;
}
