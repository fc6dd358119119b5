// Built stratum-mcp servers for the team-store load harness, driven by the MCP SDK's client: over
// stdio (one session per process, the process ends with the client) or as the HTTP team server
// (`--http 127.0.0.1:0`, as many sessions as asked, a bearer token we choose). Loopback only.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ToolCaller } from "../pg-scale-flow";

export interface BenchServer {
  /** The server's process id. */
  readonly pid: number;
  /** A new session: the one stdio session the first time (and again after), a new one over HTTP. */
  session(): Promise<ToolCaller>;
  /** Closes the sessions and ends the process; resolves when it has exited. */
  stop(): Promise<void>;
}

const START_MS = 30_000;

function caller(client: Client): ToolCaller {
  return {
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 });
      const content = result.content as { type: string; text?: string }[] | undefined;
      const parsed = JSON.parse(content?.[0]?.text ?? "null") as unknown;
      if (typeof parsed !== "object" || parsed === null)
        throw new Error(`${tool}: no JSON object in the answer`);
      return parsed as Record<string, unknown>;
    },
  };
}

function newClient(): Client {
  return new Client({ name: "stratumc-pg-scale-bench", version: "0.0.0" }, { capabilities: {} });
}

export async function startStdioServer(
  repoDir: string,
  cwd: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<BenchServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, join(repoDir, "bin/stratum-mcp.cjs")],
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "inherit",
  });
  const client = newClient();
  await client.connect(transport);
  const session = caller(client);
  return {
    pid: transport.pid ?? Number.NaN,
    session: () => Promise.resolve(session),
    stop: () => client.close(),
  };
}

/**
 * The HTTP team server. With `connectionClose` every request asks for its connection to be closed
 * after the answer (no keep-alive reuse: a new loopback connection per call).
 */
export async function startHttpServer(
  repoDir: string,
  cwd: string,
  env: Record<string, string>,
  connectionClose = false,
  nodeArgs: readonly string[] = [],
): Promise<BenchServer> {
  const token = randomBytes(24).toString("hex");
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, join(repoDir, "bin/stratum-mcp.cjs"), "--http", "127.0.0.1:0"],
    {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env, STRATUM_MCP_TOKEN: token },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  const clients: Client[] = [];
  const stop = async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`pg-scale bench: the HTTP server did not start: ${stderr}`)),
        START_MS,
      );
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`pg-scale bench: the HTTP server exited: ${stderr}`));
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const found = /at http:\/\/127\.0\.0\.1:(\d+)\/mcp\n/.exec(stderr)?.[1];
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(Number(found));
        }
      });
    });
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    return {
      pid: child.pid ?? Number.NaN,
      async session() {
        const client = newClient();
        clients.push(client);
        await client.connect(
          new StreamableHTTPClientTransport(url, {
            requestInit: {
              headers: {
                Authorization: `Bearer ${token}`,
                ...(connectionClose ? { Connection: "close" } : {}),
              },
            },
          }),
        );
        return caller(client);
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
