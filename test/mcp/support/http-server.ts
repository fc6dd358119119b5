// Starts the built `stratum-mcp --http 127.0.0.1:0` (node bin/stratum-mcp.cjs) and reads the
// address and, when the server made it, the bearer token from the lines it prints at start.
// Clients: the SDK's StreamableHTTPClientTransport (`connect`), or raw fetch for what the SDK
// client would never send (`post`).
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { ensureBundle } from "../../cli/run-cli";
import { MCP_BIN } from "./server";

export interface HttpServerOptions {
  readonly cwd: string;
  /** STRATUM_HOME. */
  readonly home: string;
  readonly env?: Readonly<Record<string, string>>;
  /** The program and words before `--http 127.0.0.1:0` (default: the built stratum-mcp). */
  readonly command?: readonly string[];
}

export interface RunningHttpServer {
  readonly child: ChildProcess;
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
  readonly port: number;
  /** The token the server printed, or STRATUM_MCP_TOKEN. */
  readonly token: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /**
   * An SDK client connected over Streamable HTTP with these headers (default: the token), declaring
   * these capabilities (default none), its request handlers set by `prepare` before it connects.
   */
  connect(
    headers?: Record<string, string>,
    options?: { capabilities?: ClientCapabilities; prepare?: (client: Client) => void },
  ): Promise<Client>;
  /** SIGTERM, then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const START_MS = 30_000;

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  ensureBundle();
  const child = spawn(process.execPath, [...(options.command ?? [MCP_BIN]), "--http", "127.0.0.1:0"], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", STRATUM_HOME: options.home, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const given = options.env?.STRATUM_MCP_TOKEN;
  const started = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${stderr}`)), START_MS);
    void exited.then(() => reject(new Error(`the server exited: ${stderr}`)));
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const port = /at http:\/\/127\.0\.0\.1:(\d+)\/mcp\n/.exec(stderr)?.[1];
      const token = given ?? /bearer token \(shown only now[^)]*\): (\S+)\n/.exec(stderr)?.[1];
      if (port !== undefined && token !== undefined) {
        clearTimeout(timer);
        resolve({ port: Number(port), token });
      }
    });
  });
  const url = `http://127.0.0.1:${started.port}/mcp`;
  const clients: Client[] = [];
  return {
    child,
    url,
    port: started.port,
    token: started.token,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    async connect(headers = { Authorization: `Bearer ${started.token}` }, options = {}) {
      const client = new Client(
        { name: "stratumc-http-e2e", version: "0.0.0" },
        { capabilities: options.capabilities ?? {} },
      );
      options.prepare?.(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Headers of a raw POST of a client in a session. */
export function sessionHeaders(token: string, sessionId?: string): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "Mcp-Protocol-Version": "2025-06-18",
    ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
  };
}

/** The JSON-RPC messages of a response (an event stream's `data:` lines, or a JSON body). */
export async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    return text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  }
  return text === "" ? [] : [JSON.parse(text) as Record<string, unknown>];
}

/** A raw session: initialize and notifications/initialized by fetch; its id. */
export async function rawSession(url: string, token: string): Promise<string> {
  const init = await fetch(url, {
    method: "POST",
    headers: sessionHeaders(token),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    }),
  });
  const sessionId = init.headers.get("mcp-session-id");
  await init.text();
  if (sessionId === null) throw new Error(`no session: ${init.status}`);
  const ack = await fetch(url, {
    method: "POST",
    headers: sessionHeaders(token, sessionId),
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await ack.text();
  return sessionId;
}
