// A line-level connection to the built stratum-mcp for the hostile tests: the test writes exact
// bytes (several lines in one write, garbage, lines split across writes) and sees every line of
// standard output. Unlike test/mcp/support/raw-session.ts it can write raw chunks and wait with a
// deadline, which the duplicate-id and fuzz tests need.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ensureBundle } from "../cli/run-cli";
import { MCP_BIN } from "../mcp/support/server";

export const PROTOCOL_VERSION = "2025-06-18";

export interface WireMessage {
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

/** A temporary root with the server's working directory (`work`) and store (`home`) inside. */
export interface Sandbox {
  readonly root: string;
  readonly work: string;
  readonly home: string;
  /** Every file and directory under the root, relative to it, sorted. */
  tree(): string[];
  dispose(): void;
}

export function sandbox(prefix: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const work = join(root, "work");
  const home = join(root, "home");
  mkdirSync(join(work, "sub"), { recursive: true });
  mkdirSync(home);
  return {
    root,
    work,
    home,
    tree: () => listTree(root).map((p) => relative(root, p)),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

function listTree(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out.push(path);
    if (entry.isDirectory()) out.push(...listTree(path));
  }
  return out.sort();
}

export class WireServer {
  /** Every stdout line so far, as written. */
  readonly lines: string[] = [];
  /** The stdout lines that parse as JSON objects, in order. */
  readonly messages: WireMessage[] = [];
  private stderrText = "";
  private buffered = "";
  private listeners: (() => void)[] = [];
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(box: Pick<Sandbox, "work" | "home">) {
    ensureBundle();
    this.child = spawn(process.execPath, [MCP_BIN], {
      cwd: box.work,
      env: { ...process.env, STRATUM_HOME: box.home },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk.toString("utf8")));
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrText += chunk.toString("utf8");
    });
  }

  /** Standard error without the hook-refresh notice of a first start (runtime.md §21.1). */
  get stderr(): string {
    return this.stderrText
      .split(/(?<=\n)/)
      .filter((line) => !/^stratum-mcp: refreshed the hook scripts in /.test(line))
      .join("");
  }

  /** Writes bytes exactly as given (one write). */
  write(text: string | Uint8Array): void {
    this.child.stdin?.write(text);
  }

  /** Writes these messages as lines in one write, so the server reads them in one chunk. */
  sendAll(messages: readonly Record<string, unknown>[]): void {
    this.write(messages.map((m) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`).join(""));
  }

  /** Every answer (result or error) carrying this id so far. */
  answers(id: unknown): WireMessage[] {
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

  /** Sends one request and waits for its (first) answer. */
  async request(id: string | number, method: string, params?: unknown): Promise<WireMessage> {
    this.sendAll([{ id, method, ...(params === undefined ? {} : { params }) }]);
    await this.until(() => this.answers(id).length > 0, `the answer to ${JSON.stringify(id)}`);
    return this.answers(id)[0] as WireMessage;
  }

  async initialize(): Promise<void> {
    await this.request("init", "initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "hostile", version: "0.0.0" },
    });
    this.sendAll([{ method: "notifications/initialized" }]);
  }

  /** Closes standard input (the server answers what it has received, then exits). */
  closeInput(): Promise<number | null> {
    this.child.stdin?.end();
    return this.exited;
  }

  kill(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    return this.exited;
  }

  private receive(text: string): void {
    const parts = (this.buffered + text).split("\n");
    this.buffered = parts.pop() ?? "";
    for (const line of parts) {
      this.lines.push(line);
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === "object" && value !== null) this.messages.push(value as WireMessage);
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
export function toolContent(message: WireMessage): Record<string, unknown> {
  const content = message.result?.structuredContent;
  if (content === undefined) throw new Error(`not a tool result: ${JSON.stringify(message)}`);
  return content;
}

/** Text that must never reach a client: a zod issue dump, a stack trace, an internal error. */
export const LEAK_PATTERNS: readonly RegExp[] = [
  /ZodError/,
  /Invalid input/,
  /"code":\s*"invalid_type"/,
  /\\"code\\":\s*\\"invalid_type\\"/,
  /\n\s+at .+\(.*:\d+:\d+\)/,
  /\\n\s+at .+:\d+:\d+/,
  /-32603/,
];

export function leaks(text: string): string[] {
  return LEAK_PATTERNS.filter((p) => p.test(text)).map(String);
}

/** A spec with one flow of one infer step (output {answer: string}), named `flow`. */
export function tinySpec(flow = "main"): string {
  return [
    'version: "0.1"',
    "contracts:",
    "  Out:",
    "    answer: {type: string}",
    "functions:",
    "  answer:",
    "    mode: infer",
    "    intent: Answer.",
    "    input: {}",
    "    output: Out",
    "flows:",
    `  ${flow}:`,
    "    input: {}",
    "    output: Out",
    "    steps:",
    "      - id: s1",
    "        function: answer",
    "        inputs: {}",
    "",
  ].join("\n");
}
