// A real PostgreSQL server for the tests and benchmarks of the PostgreSQL flow store: Debian's
// server binaries (`apt-get install postgresql`, done by .ci/run), a cluster in a temporary
// directory, owned and run by an unprivileged user (`postgres` when we are root: initdb refuses
// to run as root), listening on 127.0.0.1 at a free port with trust authentication. Each test
// file starts its own server and makes a database per test, so tests never share state.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PgServer {
  readonly port: number;
  readonly dataDir: string;
  /** The URL of a database on this server (default `postgres`). */
  url(database?: string): string;
  /** Creates a new, empty database and returns its URL. */
  createDatabase(prefix?: string): string;
  /** Runs SQL through psql as the superuser (for set-up and assertions). */
  psql(sql: string, database?: string): string;
  /** Stops the server (fast shutdown: connections are closed). */
  stop(): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /** Stops it and deletes its data. */
  destroy(): void;
}

export interface PgServerOptions {
  /** Flush to disk as a production server does (benchmarks); tests turn it off for speed. */
  readonly durable?: boolean;
  /** More server settings (`name=value`, e.g. the TLS test's `ssl=on`). */
  readonly settings?: readonly string[];
  /** Runs on the new data directory before the server first starts (files it must own). */
  readonly prepare?: (dataDir: string, owner: { uid: number; gid: number } | null) => void;
}

const SUPERUSER = "postgres";

/** The newest installed server's bin directory, or a clear failure naming the package. */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql (.ci/run does)",
    );
  }
  return join(root, versions[0]!, "bin");
}

/** Runs a server program as the unprivileged user that owns the cluster. */
function asOwner(program: string, args: readonly string[]): string[] {
  return process.getuid?.() === 0 ? ["runuser", "-u", SUPERUSER, "--", program, ...args] : [program, ...args];
}

function run(command: readonly string[], input?: string): string {
  const [file, ...args] = command;
  const result = spawnSync(file!, args, { encoding: "utf8", input, cwd: tmpdir() });
  if (result.status !== 0) {
    throw new Error(`${command.join(" ")} failed (${result.status}): ${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let databaseCounter = 0;

export async function startPostgres(options: PgServerOptions = {}): Promise<PgServer> {
  const bin = postgresBinDir();
  const dataDir = mkdtempSync(join(tmpdir(), "stratumc-pg-"));
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds(SUPERUSER);
    chownSync(dataDir, uid, gid);
  }
  run(
    asOwner(join(bin, "initdb"), [
      "-D",
      dataDir,
      "-A",
      "trust",
      "-U",
      SUPERUSER,
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]),
  );
  options.prepare?.(dataDir, process.getuid?.() === 0 ? userIds(SUPERUSER) : null);
  // A free port can be taken by another test file between our check and the server's start:
  // then the start fails and another port is tried.
  for (let attempt = 1; ; attempt += 1) {
    const server = serverOn(bin, dataDir, await freePort(), options);
    try {
      server.start();
      return server;
    } catch (e) {
      if (attempt === 3) {
        rmSync(dataDir, { recursive: true, force: true });
        throw e;
      }
    }
  }
}

function serverOn(bin: string, dataDir: string, port: number, options: PgServerOptions): PgServer {
  const settings = [
    `-p ${port}`,
    `-k ${dataDir}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=200",
    ...(options.settings ?? []).map((setting) => `-c ${setting}`),
    ...(options.durable === true
      ? []
      : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ].join(" ");
  const pgCtl = (args: readonly string[]) => run(asOwner(join(bin, "pg_ctl"), ["-D", dataDir, ...args]));
  const server: PgServer = {
    port,
    dataDir,
    url: (database = "postgres") => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`,
    createDatabase(prefix = "t") {
      databaseCounter += 1;
      const name = `${prefix}_${process.pid}_${databaseCounter}`;
      server.psql(`CREATE DATABASE ${name}`);
      return server.url(name);
    },
    psql: (sql, database = "postgres") =>
      run(
        [
          join(bin, "psql"),
          "-X",
          "-q",
          "-t",
          "-A",
          "-v",
          "ON_ERROR_STOP=1",
          "-h",
          "127.0.0.1",
          "-p",
          String(port),
          "-U",
          SUPERUSER,
          "-d",
          database,
        ],
        sql,
      ),
    stop: () => {
      pgCtl(["stop", "-m", "fast", "-w"]);
    },
    start: () => {
      pgCtl(["start", "-w", "-t", "30", "-l", join(dataDir, "server.log"), "-o", settings]);
    },
    destroy: () => {
      try {
        pgCtl(["stop", "-m", "immediate", "-w"]);
      } catch {
        // already stopped
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

function userIds(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (line === undefined) throw new Error(`no user '${name}' (the postgresql package creates it)`);
  const fields = line.split(":");
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}
