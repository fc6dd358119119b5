// The server's log as MCP notifications/message (mcp/client-log.ts, mcp/log-secrets.ts), with the
// SDK's own client over an in-memory pair: the default level, logging/setLevel, the start-up lines
// a client gets once initialized, the rate cap, long lines cut, and no secret of the environment in
// what a client receives or standard error shows.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientLog, MAX_DATA_CHARS, MAX_PER_SECOND, reaches } from "../../mcp/client-log";
import { scrubSecrets, secretsOf } from "../../mcp/log-secrets";

interface Received {
  readonly level: string;
  readonly data: unknown;
}

async function connected(log: ClientLog): Promise<{ client: Client; received: Received[] }> {
  const server = new Server({ name: "t", version: "0" }, { capabilities: { tools: {}, logging: {} } });
  log.attach(server);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "c", version: "0" });
  const received: Received[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    received.push({ level: n.params.level, data: n.params.data });
  });
  await server.connect(a);
  await client.connect(b);
  return { client, received };
}

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
}

describe("ClientLog", () => {
  it("sends warning and above until the client sets a level, then what its level reaches", async () => {
    const stderr: string[] = [];
    const log = new ClientLog({ stderr: (t) => stderr.push(t), programName: "stratum-mcp" });
    const { client, received } = await connected(log);
    await settle();
    log.log("info", "an info line");
    log.warn("a warning");
    log.error("an error");
    await settle();
    expect(received).toEqual([
      { level: "warning", data: "a warning" },
      { level: "error", data: "an error" },
    ]);
    await client.setLoggingLevel("debug");
    log.log("info", "now heard");
    await client.setLoggingLevel("error");
    log.warn("not heard");
    await settle();
    expect(received.slice(2)).toEqual([{ level: "info", data: "now heard" }]);
    // Standard error has every warning and error, whatever the client's level, and no info line.
    expect(stderr).toEqual([
      "stratum-mcp: a warning\n",
      "stratum-mcp: an error\n",
      "stratum-mcp: not heard\n",
    ]);
    await client.close();
  });

  it("gives a client initialized later the lines logged before any client was", async () => {
    const log = new ClientLog({ stderr: () => undefined, programName: "stratum-mcp" });
    log.warn("STRATUM_AGENT_ENV: 'x y' is ignored");
    log.log("debug", "below the default level");
    const { client, received } = await connected(log);
    await settle();
    expect(received).toEqual([{ level: "warning", data: "STRATUM_AGENT_ENV: 'x y' is ignored" }]);
    await client.close();
    // A closed session's server is forgotten at the next line.
    await settle();
    expect(log.attached).toBe(1);
    log.warn("after the close");
    expect(log.attached).toBe(0);
  });

  it("caps the messages a second, says how many it held back, and cuts long lines", async () => {
    let clock = 0;
    const log = new ClientLog({ stderr: () => undefined, programName: "stratum-mcp", now: () => clock });
    const { client, received } = await connected(log);
    await settle();
    clock = 5_000;
    for (let i = 0; i < MAX_PER_SECOND + 7; i++) log.warn(`w${i}`);
    clock = 6_500;
    log.warn("x".repeat(MAX_DATA_CHARS + 10));
    await settle();
    expect(received).toHaveLength(MAX_PER_SECOND + 2);
    expect(received[MAX_PER_SECOND]?.data).toBe(
      `7 log message(s) not sent (more than ${MAX_PER_SECOND} a second); the server's standard error has them`,
    );
    expect(received[MAX_PER_SECOND + 1]?.data).toBe(
      `${"x".repeat(MAX_DATA_CHARS)}… (10 more characters on the server's standard error)`,
    );
    await client.close();
  });

  it("orders the levels as the protocol does", () => {
    expect(reaches("error", "warning")).toBe(true);
    expect(reaches("warning", "warning")).toBe(true);
    expect(reaches("notice", "warning")).toBe(false);
    expect(reaches("debug", "debug")).toBe(true);
    expect(reaches("emergency", "alert")).toBe(true);
  });

  it("never sends a secret of the environment, nor writes one on standard error", async () => {
    const env = {
      GITHUB_TOKEN: "ghp_abcdef123456",
      STRATUM_STORE: "postgres://team:s3cr%40t-pass@db.example/flows",
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer tok-987654321,x-team=blue",
      STRATUM_AGENT_ENV: "PROBE_DIR,NPM_TOKEN=npm_zyxwvu987",
      HOME: "/home/someone",
    };
    const stderr: string[] = [];
    const log = new ClientLog({
      stderr: (t) => stderr.push(t),
      programName: "stratum-mcp",
      secrets: secretsOf(env),
    });
    const { client, received } = await connected(log);
    await settle();
    const line =
      "saw ghp_abcdef123456, s3cr@t-pass, s3cr%40t-pass, tok-987654321, 'NPM_TOKEN=npm_zyxwvu987' and /home/someone";
    log.warn(line);
    await settle();
    expect(received).toEqual([
      { level: "warning", data: "saw ***, ***, ***, ***, 'NPM_TOKEN=***' and /home/someone" },
    ]);
    expect(stderr).toEqual([`stratum-mcp: saw ***, ***, ***, ***, 'NPM_TOKEN=***' and /home/someone\n`]);
    await client.close();
  });
});

describe("scrubSecrets", () => {
  it("leaves no secret in the text, however the text is built around it", () => {
    const secretArb = fc.string({ minLength: 6, maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(secretArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.nat({ max: 2 })), { maxLength: 12 }),
        (secrets, pieces) => {
          const text = pieces
            .map((p) => (typeof p === "number" ? (secrets[p % secrets.length] as string) : p))
            .join("");
          const out = scrubSecrets(text, secrets);
          for (const s of secrets) expect(out.includes(s)).toBe(false);
          // Text without a secret is unchanged.
          const clean = pieces.filter((p): p is string => typeof p === "string").join("");
          if (!secrets.some((s) => clean.includes(s))) expect(scrubSecrets(clean, secrets)).toBe(clean);
        },
      ),
    );
  });

  it("takes secrets from secret-named variables, key=value entries and URL passwords only", () => {
    const secrets = secretsOf({
      API_KEY: "k-1234567",
      PATH: "/usr/bin:/bin",
      SHORT_TOKEN: "abc",
      STRATUM_STORE: "postgres://u:pw-99999@h/db",
      PLAIN: "NAME=value-not-secret",
    });
    expect(secrets).toContain("k-1234567");
    expect(secrets).toContain("pw-99999");
    expect(secrets).not.toContain("/usr/bin:/bin");
    expect(secrets).not.toContain("abc");
    expect(secrets).not.toContain("value-not-secret");
  });
});
