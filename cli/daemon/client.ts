// The daemon client (bundled alone to dist/stratumc-client.cjs, which bin/stratumc.cjs runs for
// `check` and `validate` when STRATUMC_DAEMON is set): sends the command line, working directory,
// environment, terminal flags and standard input to the resident checker of this build and prints
// its answer, byte for byte, with its exit status. It imports node built-ins only, so it starts
// about as fast as `node -e 0`.
//
// Whatever goes wrong falls back, silently, to the local CLI: before standard input was read, by
// exiting with EXIT_NOT_SERVED (the launcher then runs the snapshot); after, by running the local
// CLI itself on the same input (client-fallback.ts). Nothing is written before a whole, valid
// answer came back. With STRATUMC_DAEMON=use a missing daemon is not started; any other value
// starts one in the background for the next run.
import { connect } from "node:net";
import { BUILD_ID } from "./build-id";
import { runLocally } from "./client-fallback";
import {
  type CheckRequest,
  type Chunk,
  EXIT_NOT_SERVED,
  encode,
  MAX_STDIN_BYTES,
  servedByDaemon,
} from "./protocol";
import { isOwnSocket, socketDir, socketPath, unsafeDirReason } from "./socket-path";
import { spawnDaemon } from "./spawn-daemon";

const DEFAULT_TIMEOUT_MS = 30_000;

const args = process.argv.slice(2);
const env = process.env;

function notServed(startDaemon: boolean): never {
  if (startDaemon && env.STRATUMC_DAEMON !== "use") spawnDaemon(env);
  process.exit(EXIT_NOT_SERVED);
}

function main(): void {
  if (!servedByDaemon(args, env.STRATUMC_PROG)) notServed(false);
  const dir = socketDir(env);
  const path = socketPath(dir);
  const dirProblem = unsafeDirReason(dir);
  // A missing directory or socket: no daemon yet. A directory that is not private: never use it.
  if (dirProblem !== null) notServed(dirProblem.endsWith(": ENOENT"));
  if (!isOwnSocket(path)) notServed(true);
  let stdin: Buffer | null = null;
  let answer = "";
  let done = false;
  const socket = connect(path);
  const fail = () => {
    if (done) return;
    done = true;
    socket.destroy();
    if (stdin === null) notServed(true);
    runLocally(args, stdin, false);
  };
  socket.setTimeout(Number(env.STRATUMC_DAEMON_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS, fail);
  socket.on("error", fail);
  socket.on("connect", () => {
    void readStdinIfNeeded().then((input) => {
      if (done) return;
      if (input.tooBig) {
        done = true;
        socket.destroy();
        runLocally(args, input.bytes, true);
        return;
      }
      if (input.read) stdin = input.bytes;
      socket.end(encode(request(stdin)));
    }, fail);
  });
  socket.setEncoding("utf8");
  socket.on("data", (text: string) => {
    answer += text;
  });
  socket.on("end", () => {
    const chunks = parseAnswer(answer);
    if (chunks === null) return fail();
    done = true;
    socket.destroy();
    write(chunks.chunks, chunks.code);
  });
}

function request(stdin: Buffer | null): CheckRequest {
  const sent: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) sent[k] = v;
  return {
    op: "check",
    build: BUILD_ID,
    argv: args,
    cwd: process.cwd(),
    env: sent,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdin: stdin === null ? null : stdin.toString("base64"),
  };
}

interface StdinRead {
  readonly read: boolean;
  readonly bytes: Buffer;
  readonly tooBig: boolean;
}

async function readStdinIfNeeded(): Promise<StdinRead> {
  if (!args.includes("-")) return { read: false, bytes: Buffer.alloc(0), tooBig: false };
  const chunks: Buffer[] = [];
  let length = 0;
  process.stdin.pause();
  for await (const chunk of process.stdin) {
    const bytes: Buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    length += bytes.length;
    if (length > MAX_STDIN_BYTES) return { read: true, bytes: Buffer.concat(chunks, length), tooBig: true };
  }
  return { read: true, bytes: Buffer.concat(chunks, length), tooBig: false };
}

function parseAnswer(text: string): { chunks: readonly Chunk[]; code: number } | null {
  try {
    const answer: unknown = JSON.parse(text);
    if (typeof answer !== "object" || answer === null) return null;
    const a = answer as { ok?: unknown; build?: unknown; chunks?: unknown; code?: unknown };
    if (a.ok !== true || a.build !== BUILD_ID || typeof a.code !== "number" || !Array.isArray(a.chunks))
      return null;
    const valid = a.chunks.every(
      (c: unknown) => Array.isArray(c) && (c[0] === 1 || c[0] === 2) && typeof c[1] === "string",
    );
    return valid ? { chunks: a.chunks as Chunk[], code: a.code } : null;
  } catch {
    return null;
  }
}

function write(chunks: readonly Chunk[], code: number): void {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(code);
  });
  for (const [fd, text] of chunks) (fd === 1 ? process.stdout : process.stderr).write(text);
  process.exitCode = code;
}

main();
