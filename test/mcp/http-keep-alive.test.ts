// Kept-alive connections of the built `stratum-mcp --http` (docs/guides/mcp-server-http.md,
// "Kept-alive connections"): a call sent on a connection the client kept alive is answered even
// when the server's process was held (SIGSTOP, as a CPU-starved process is) past Node's own 5 s
// keep-alive deadline and past the server's; answers tell clients the deadline; a connection left
// idle past it is closed by the server.
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningHttpServer, startHttpServer } from "./support/http-server";
import { tempDir } from "./support/server";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("stratum-mcp --http: kept-alive connections", () => {
  const home = tempDir("stratum-mcp-keep-alive-");
  const running: RunningHttpServer[] = [];
  afterEach(async () => {
    for (const server of running.splice(0)) {
      server.child.kill("SIGCONT");
      await server.stop();
    }
  });

  async function start(env: Record<string, string> = {}): Promise<RunningHttpServer> {
    const server = await startHttpServer({ cwd: home.path, home: home.path, env });
    running.push(server);
    return server;
  }

  it("answers the calls clients sent on kept-alive connections while the server was held past the deadlines", async () => {
    const server = await start({ STRATUM_MCP_KEEP_ALIVE: "2" });
    const clients = await Promise.all(Array.from({ length: 8 }, () => server.connect()));
    for (const client of clients) await client.listTools();
    await sleep(500);
    // The server is held (as a starved process is): the clients' calls wait in its socket buffers
    // on connections it kept alive, past its 2 s deadline and past Node's own 5 s.
    server.child.kill("SIGSTOP");
    const calls = clients.map((client) =>
      client.listTools().then(
        (listed) => listed.tools.length,
        (e: unknown) => `${String(e)} ${String((e as { cause?: unknown }).cause)}`,
      ),
    );
    await sleep(5_500);
    server.child.kill("SIGCONT");
    const answers = await Promise.all(calls);
    for (const answer of answers) expect(answer).toBeTypeOf("number");
  }, 60_000);

  it("tells clients the deadline, and closes a connection left idle past it", async () => {
    const server = await start({ STRATUM_MCP_KEEP_ALIVE: "1" });
    const socket = connect(server.port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      `GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.token}\r\n\r\n`,
    );
    while (!text.includes("\r\n\r\n")) await sleep(10);
    const answered = Date.now();
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
    expect(text).toMatch(/\r\nConnection: keep-alive\r\n/i);
    const closedAt = await closed;
    expect(closedAt - answered).toBeGreaterThanOrEqual(900);
  }, 30_000);

  it("tells clients 65 s by default", async () => {
    const server = await start();
    const response = await fetch(`http://127.0.0.1:${server.port}/nowhere`, {
      headers: { Authorization: `Bearer ${server.token}` },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("keep-alive")).toBe("timeout=65");
  }, 30_000);
});
