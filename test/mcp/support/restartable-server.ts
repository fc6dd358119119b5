// One built stratum-mcp at a time on a fresh STRATUM_HOME per test, for tests that restart the
// server in the middle of a flow: `restart()` closes the running server (it must exit 0) and starts
// the next on the same home; after each test nothing unexpected may have reached stderr. Registers
// its own beforeEach/afterEach in the calling describe block. Without `env`, servers start with no
// agent runner (STRATUM_PARALLEL_DISPATCH=off).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, expect } from "vitest";
import { McpStratumApi } from "./mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./server";

export interface RestartableServer {
  /** A (new) server on the same STRATUM_HOME, and the API over it. */
  restart(): Promise<McpStratumApi>;
  /** The running server's MCP client (for raw tool calls). */
  client(): Client;
}

export function restartableServer(
  homePrefix: string,
  env: Readonly<Record<string, string>> = { STRATUM_PARALLEL_DISPATCH: "off" },
): RestartableServer {
  let home: ReturnType<typeof tempDir>;
  let server: RunningServer | undefined;
  const stderr: string[] = [];

  async function close(): Promise<void> {
    if (server === undefined) return;
    expect(await server.closeInput()).toBe(0);
    stderr.push(server.stderr());
  }

  beforeEach(() => {
    home = tempDir(homePrefix);
    server = undefined;
    stderr.length = 0;
  });

  afterEach(async () => {
    await close();
    home.dispose();
    expect(unexpectedStderr(stderr.join(""))).toBe("");
  });

  return {
    async restart() {
      await close();
      const next = await startServer({ cwd: home.path, home: home.path, env: { ...env } });
      server = next;
      return new McpStratumApi(async () => next.client);
    },
    client() {
      if (server === undefined) throw new Error("no server is running");
      return server.client;
    },
  };
}
