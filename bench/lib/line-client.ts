// A minimal MCP client over a server's stdio for the benchmarks: requests in order, answers matched
// by id, no schema validation (so what is measured is the server and the pipe).
import { type ChildProcess, spawn } from "node:child_process";

/** A minimal MCP client over the server's stdio: requests in order, answers matched by id. */
export class LineClient {
  private buffered = "";
  private nextId = 0;
  private readonly waiting = new Map<number, (message: Record<string, unknown>) => void>();

  constructor(private readonly child: ChildProcess) {
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      this.buffered += chunk;
      for (let nl = this.buffered.indexOf("\n"); nl !== -1; nl = this.buffered.indexOf("\n")) {
        const message = JSON.parse(this.buffered.slice(0, nl)) as Record<string, unknown>;
        this.buffered = this.buffered.slice(nl + 1);
        const resolve = this.waiting.get(message.id as number);
        this.waiting.delete(message.id as number);
        resolve?.(message);
      }
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }

  /** A tool call's response object (the text content, parsed). */
  async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await this.request("tools/call", { name, arguments: args });
    const result = answer.result as { content: { text: string }[] } | undefined;
    if (result === undefined) throw new Error(`mcp bench: ${name} failed: ${JSON.stringify(answer.error)}`);
    return JSON.parse(result.content[0]?.text ?? "null") as Record<string, unknown>;
  }
}

/** An MCP server process over stdio, initialised, with a line client on its pipes. */
export interface LineServer {
  readonly client: LineClient;
  readonly child: ChildProcess;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;
}

/** Starts `node ARGS` as an MCP server (stderr inherited) and runs the initialize handshake. */
export async function startLineServer(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  clientName: string,
): Promise<LineServer> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const client = new LineClient(child);
  await client.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: clientName, version: "0.0.0" },
  });
  client.notify("notifications/initialized");
  return { client, child, exited };
}
