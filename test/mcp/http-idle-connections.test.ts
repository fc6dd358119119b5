// The HTTP server's idle-connection sweep (mcp/http/idle-connections.ts) on a real server and real
// sockets in this process: an idle connection is closed after its deadline, one with an answer in
// progress is not, and a request that reached the server while its event loop was held past the
// deadline is answered. (The built server held by SIGSTOP: test/mcp/http-keep-alive.test.ts.)
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { IdleConnections } from "../../mcp/http/idle-connections";

const IDLE_MS = 400;
const REQUEST =
  "POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering `{"ok":1}` at once, or never for `/stream` (an answer in progress). */
async function serve(): Promise<number> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/stream") {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.write(": open\n\n");
        return;
      }
      res.setHeader("Content-Type", "application/json");
      res.end('{"ok":1}');
    });
  });
  servers.push(server);
  new IdleConnections(IDLE_MS).watch(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw client connection that collects what it reads and whether the server closed it. */
async function open(port: number): Promise<{ socket: Socket; read: () => string; closed: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { socket, read: () => text, closed };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes a request on `socket`, then holds this process's event loop for `ms`, as a starved or
 * collecting server is held, all in the check phase: the request is in the server's socket buffer,
 * unread, and the next turn of the loop runs its timers before it reads the sockets, as a process
 * woken after being descheduled does.
 */
function writeThenHold(socket: Socket, ms: number): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      socket.write(REQUEST);
      const end = Date.now() + ms;
      while (Date.now() < end) {
        // nothing: the point is that no callback runs
      }
      resolve();
    }),
  );
}

async function answers(read: () => string, count: number, withinMs: number): Promise<number> {
  const end = Date.now() + withinMs;
  const counted = (): number => read().split('{"ok":1}').length - 1;
  while (counted() < count && Date.now() < end) await sleep(10);
  return counted();
}

describe("the HTTP server's idle connections", () => {
  it("tells clients the deadline in the Keep-Alive header", () => {
    expect(new IdleConnections(65_000).keepAliveHeader).toBe("timeout=65");
    expect(new IdleConnections(150).keepAliveHeader).toBe("timeout=1");
  });

  it("closes a connection left idle past the deadline, after answering on it", async () => {
    const port = await serve();
    const client = await open(port);
    client.socket.write(REQUEST);
    expect(await answers(client.read, 1, 5_000)).toBe(1);
    const closedInTime = await Promise.race([
      client.closed.then(() => true),
      sleep(IDLE_MS * 20).then(() => false),
    ]);
    expect(closedInTime).toBe(true);
  });

  it("closes a connection that never sent a request", async () => {
    const port = await serve();
    const client = await open(port);
    const closedInTime = await Promise.race([
      client.closed.then(() => true),
      sleep(IDLE_MS * 20).then(() => false),
    ]);
    expect(closedInTime).toBe(true);
  });

  it("keeps a connection whose answer is still being written (an event stream)", async () => {
    const port = await serve();
    const client = await open(port);
    client.socket.write(REQUEST.replace("/x", "/stream"));
    await sleep(IDLE_MS * 6);
    expect(client.socket.destroyed).toBe(false);
    expect(client.read()).toContain(": open");
  });

  it("answers a request that arrived while the server was held past the deadline", async () => {
    const port = await serve();
    const client = await open(port);
    client.socket.write(REQUEST);
    expect(await answers(client.read, 1, 5_000)).toBe(1);
    // The client reuses the connection just before the deadline; the server is held past it.
    await sleep(IDLE_MS / 2);
    await writeThenHold(client.socket, IDLE_MS * 3);
    expect(await answers(client.read, 2, 5_000)).toBe(2);
  });

  it("answers a reused connection's request sent within the deadline, however long the server is then held", async () => {
    const port = await serve();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: IDLE_MS / 4 }),
        fc.integer({ min: 0, max: IDLE_MS * 2 }),
        async (gap, held) => {
          const client = await open(port);
          try {
            client.socket.write(REQUEST);
            expect(await answers(client.read, 1, 5_000)).toBe(1);
            await sleep(gap);
            await writeThenHold(client.socket, held);
            expect(await answers(client.read, 2, 5_000)).toBe(2);
          } finally {
            client.socket.destroy();
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 60_000);
});
