// The resident checker (bundled to dist/stratumc-daemon.cjs; started by `stratumc daemon start` or
// by the client when STRATUMC_DAEMON is set). It listens on the build's socket in the user's
// private directory (socket-path.ts), answers `check` / `validate` requests one at a time, and
// exits after STRATUMC_DAEMON_IDLE_MS (default 15 minutes) without a request, or on `stop`.
//
// Only the user can reach it: the directory is the user's, mode 0700, checked before listening
// (a directory with other permissions or another owner is refused), and the socket is mode 0600.
// Node cannot read the peer's credentials (SO_PEERCRED); the directory is what keeps others out.
import { chmodSync, lstatSync, unlinkSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { BUILD_ID } from "./build-id";
import { type Chunk, encode, type Request, type Response } from "./protocol";
import { serveCheck } from "./serve-check";
import { ensurePrivateDir, socketDir, socketPath } from "./socket-path";
import { warmUpDaemon } from "./warm-up";

const DEFAULT_IDLE_MS = 15 * 60_000;
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

const dir = socketDir(process.env);
const path = socketPath(dir);
const idleMs = Number(process.env.STRATUMC_DAEMON_IDLE_MS ?? DEFAULT_IDLE_MS) || DEFAULT_IDLE_MS;
let queue: Promise<void> = Promise.resolve();
let idle: NodeJS.Timeout | undefined;
let socketIno: number | undefined;

const server = createServer({ allowHalfOpen: true }, (client) => {
  armIdleTimer();
  let text = "";
  client.setEncoding("utf8");
  client.on("error", () => undefined);
  client.on("data", (data: string) => {
    text += data;
    if (text.length > MAX_REQUEST_BYTES) client.destroy();
  });
  client.on("end", () => {
    queue = queue.then(() => answer(client, text));
  });
});

async function answer(client: Socket, text: string): Promise<void> {
  let request: Request;
  try {
    request = JSON.parse(text) as Request;
  } catch {
    return reply(client, { ok: false, build: BUILD_ID, reason: "not JSON" });
  }
  if (request.build !== BUILD_ID)
    return reply(client, { ok: false, build: BUILD_ID, reason: "another build" });
  switch (request.op) {
    case "ping":
      return reply(client, { ok: true, build: BUILD_ID, pid: process.pid, idleMs });
    case "stop":
      client.end(encode({ ok: true, build: BUILD_ID, pid: process.pid, idleMs }), shutDown);
      return;
    case "check": {
      let result: { chunks: Chunk[]; code: number };
      try {
        result = await serveCheck(request);
      } catch (e) {
        return reply(client, { ok: false, build: BUILD_ID, reason: String(e) });
      }
      armIdleTimer();
      return reply(client, { ok: true, build: BUILD_ID, ...result });
    }
    default:
      return reply(client, { ok: false, build: BUILD_ID, reason: "unknown request" });
  }
}

function reply(client: Socket, response: Response): void {
  if (!client.destroyed) client.end(encode(response));
}

function armIdleTimer(): void {
  if (idle !== undefined) clearTimeout(idle);
  idle = setTimeout(shutDown, idleMs);
}

function shutDown(): void {
  server.close();
  removeOwnSocket();
  process.exit(0);
}

/** Removes the socket file only while it is still the one this daemon made. */
function removeOwnSocket(): void {
  try {
    if (socketIno !== undefined && lstatSync(path).ino === socketIno) unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Whether a daemon answers on the socket already (then this one is not needed). */
function answering(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.on("error", () => resolve(false));
    probe.setTimeout(2000, () => {
      probe.destroy();
      resolve(false);
    });
    probe.on("connect", () => {
      probe.destroy();
      resolve(true);
    });
  });
}

async function start(): Promise<void> {
  const problem = ensurePrivateDir(dir);
  if (problem !== null) {
    process.stderr.write(`stratumc daemon: not started: ${problem}\n`);
    process.exit(1);
  }
  if (await answering()) process.exit(0);
  try {
    unlinkSync(path); // a stale socket left by a daemon that was killed
  } catch {
    // none
  }
  await warmUpDaemon();
  server.on("error", (e: NodeJS.ErrnoException) => {
    process.stderr.write(`stratumc daemon: ${e.message}\n`);
    process.exit(e.code === "EADDRINUSE" ? 0 : 1);
  });
  server.listen(path, () => {
    chmodSync(path, 0o600);
    socketIno = lstatSync(path).ino;
    armIdleTimer();
  });
  process.on("SIGTERM", shutDown);
  process.on("SIGINT", shutDown);
}

void start();
