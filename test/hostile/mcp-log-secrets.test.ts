// The server's warnings travel to the MCP client now (notifications/message), not only to its
// standard error: a warning that quotes what the user configured must not carry a secret there.
// STRATUM_AGENT_ENV takes names, and a user who writes `GITHUB_TOKEN=<token>` into it gets a
// warning quoting the entry. Through the built stratum-mcp with the SDK's client: the warning
// arrives, with `***` where the token was, and neither it nor standard error holds a secret of the
// environment.
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer, tempDir } from "../mcp/support/server";

const TOKEN = "ghp_hostileToken0123456789";
const NPM = "npm_0987654321abcdef";
const DB_PASSWORD = "pg-Pa55word-42";

let running: { server: RunningServer; dispose(): void } | undefined;

afterEach(async () => {
  await running?.server.kill();
  running?.dispose();
  running = undefined;
});

describe("secrets in the server's log", () => {
  it("never reach the client's notifications/message or standard error", async () => {
    const home = tempDir("stratum-log-secrets-");
    const logs: unknown[] = [];
    const server = await startServer({
      cwd: home.path,
      home: home.path,
      env: {
        GITHUB_TOKEN: TOKEN,
        STRATUM_AGENT_ENV: `PROBE_DIR,GITHUB_TOKEN=${TOKEN},NPM_TOKEN=${NPM},PGPASSWORD=${DB_PASSWORD}`,
      },
      // Before connecting: the start-up warnings follow `initialized` at once.
      beforeConnect: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          logs.push(n.params.data);
        }),
    });
    running = { server, dispose: () => home.dispose() };
    const end = Date.now() + 10_000;
    while (logs.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await server.client.ping();
    expect(logs).toEqual([
      "STRATUM_AGENT_ENV: 'GITHUB_TOKEN=***' is ignored: expected a variable name or a name prefix followed by '*'",
      "STRATUM_AGENT_ENV: 'NPM_TOKEN=***' is ignored: expected a variable name or a name prefix followed by '*'",
      "STRATUM_AGENT_ENV: 'PGPASSWORD=***' is ignored: expected a variable name or a name prefix followed by '*'",
    ]);
    const stderr = server.stderr();
    expect(stderr).toMatch(/'GITHUB_TOKEN=\*\*\*' is ignored/);
    for (const secret of [TOKEN, NPM, DB_PASSWORD]) {
      expect(JSON.stringify(logs)).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
  }, 30_000);
});
