// The resident checker (cli/daemon/): through bin/stratumc.cjs with STRATUMC_DAEMON set, `check`
// and `validate` answer byte for byte as the local CLI; every failure (no daemon, a stale socket
// file, a dead socket, another build answering, a directory open to others) falls back to the local
// CLI without a trace; the daemon refuses a directory that is not private and exits when idle.
// Real processes throughout, each daemon in a private directory of the test's.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROKEN, REPO, TYPICAL } from "./cli-fixtures";

const BIN = join(REPO, "bin/stratumc.cjs");
const CLIENT = join(REPO, "dist/stratumc-client.cjs");

let work: string;
let specs: string;

beforeAll(() => {
  if (!existsSync(CLIENT)) spawnSync(process.execPath, [join(REPO, "scripts/build.mjs")], { cwd: REPO });
  work = mkdtempSync(join(tmpdir(), "stratumc-daemon-test-"));
  specs = join(work, "project");
  mkdirSync(join(specs, "specs/nested"), { recursive: true });
  writeFileSync(join(specs, "specs/broken.stratum.yaml"), BROKEN);
  writeFileSync(join(specs, "specs/nested/ok.stratum.yaml"), 'version: "0.1"\n');
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

let dirs = 0;
/** A fresh private directory for one daemon. */
function daemonDir(): string {
  const dir = join(work, `d${dirs++}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** The environment of a case: only the case's own colour and daemon settings, then `daemon`'s. */
function caseEnv(c: Case, daemon: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...c.env };
  for (const k of ["NODE_OPTIONS", "FORCE_COLOR", "NO_COLOR", "STRATUMC_DAEMON", "STRATUMC_DAEMON_DIR"]) {
    if (c.env?.[k] === undefined) delete env[k];
  }
  for (const [k, v] of Object.entries(daemon)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

interface Case {
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
  readonly input?: string;
}

function run(c: Case, daemon: Record<string, string | undefined>) {
  const env = caseEnv(c, daemon);
  const r = spawnSync(BIN, [...c.args], { cwd: specs, env, input: c.input ?? "", encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CASES: readonly Case[] = [
  { args: ["check", TYPICAL] },
  { args: ["check", "specs"] },
  { args: ["check", "specs/broken.stratum.yaml", "--format", "json"] },
  { args: ["check", "specs/broken.stratum.yaml", "--format", "sarif"] },
  { args: ["check", "specs/broken.stratum.yaml", "--format", "github"] },
  { args: ["check", "-"], input: BROKEN },
  { args: ["check", "specs/broken.stratum.yaml"], env: { FORCE_COLOR: "1" } },
  { args: ["check", "specs/broken.stratum.yaml"], env: { FORCE_COLOR: "1", NO_COLOR: "1" } },
  { args: ["check", "specs/broken.stratum.yaml", "--max-warnings", "0", "--quiet"] },
  { args: ["check", "missing.stratum.yaml"] },
  { args: ["check", "--format", "nope", "specs"] },
  { args: ["validate", "specs/broken.stratum.yaml"] },
  { args: ["validate", "-"], input: BROKEN },
];

/** Asks the daemon of `dir` (through the CLI) whether it runs. */
function status(dir: string) {
  return run({ args: ["daemon", "status"] }, { STRATUMC_DAEMON_DIR: dir });
}

describe.skipIf(process.platform === "win32")("the resident checker (STRATUMC_DAEMON)", () => {
  describe("with a daemon running", () => {
    let dir: string;
    beforeAll(() => {
      dir = daemonDir();
      const started = run({ args: ["daemon", "start"] }, { STRATUMC_DAEMON_DIR: dir });
      expect(started.status, started.stderr).toBe(0);
    });
    afterAll(() => {
      run({ args: ["daemon", "stop"] }, { STRATUMC_DAEMON_DIR: dir });
    });

    it.each(CASES.map((c) => [c.args.join(" "), c] as const))(
      "stratumc %s: the daemon answers as the local CLI",
      (_, c) => {
        const local = run(c, {});
        const served = run(c, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir });
        expect(served).toEqual(local);
        expect(local.stderr).not.toContain("internal error");
      },
    );

    it("really answers: the client alone gets the report (exit 75 would mean 'not served')", () => {
      const env = { ...process.env, STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir };
      const r = spawnSync(process.execPath, [CLIENT, "check", "specs/broken.stratum.yaml"], {
        cwd: specs,
        env,
        encoding: "utf8",
      });
      expect(r.status).toBe(1);
      expect(r.stdout).toContain("[SPEC-STEP-DUPLICATE-ID]");
      const local = spawnSync(process.execPath, [CLIENT, "check", "--watch", "specs"], { cwd: specs, env });
      expect(local.status).toBe(75); // --watch is never sent
    });

    it("is reported by `daemon status` and private: mode 0700 directory, 0600 socket", () => {
      expect(status(dir)).toMatchObject({ status: 0, stdout: expect.stringContaining("running (pid") });
      const socket = readdirSync(dir).find((f) => f.endsWith(".sock"));
      expect(socket).toBeDefined();
      const mode = spawnSync("stat", ["-c", "%a", dir, join(dir, socket ?? "")], { encoding: "utf8" }).stdout;
      expect(mode.split("\n").slice(0, 2)).toEqual(["700", "600"]);
    });
  });

  describe("falls back to the local CLI", () => {
    const sample: Case = { args: ["check", "-"], input: BROKEN };

    it("when no daemon runs (and STRATUMC_DAEMON=use starts none)", () => {
      const dir = daemonDir();
      expect(run(sample, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir })).toEqual(run(sample, {}));
      expect(readdirSync(dir)).toEqual([]);
    });

    it("when the socket is a stale regular file, or a socket nobody listens on", () => {
      const dir = daemonDir();
      const name = socketName();
      writeFileSync(join(dir, name), "stale");
      expect(run(sample, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir })).toEqual(run(sample, {}));
      rmSync(join(dir, name));
      // A socket left by a killed daemon: bound, then the listener is gone.
      const r = spawnSync(process.execPath, [
        "-e",
        `require("net").createServer().listen(${JSON.stringify(join(dir, name))}, () => process.kill(process.pid, "SIGKILL"))`,
      ]);
      expect(r.signal).toBe("SIGKILL");
      expect(existsSync(join(dir, name))).toBe(true);
      expect(run(sample, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir })).toEqual(run(sample, {}));
    });

    it("when another build answers on the socket (it reads standard input, then runs locally)", async () => {
      const dir = daemonDir();
      const impostor = await listen(join(dir, socketName()), () =>
        JSON.stringify({ ok: true, build: "another-build", chunks: [[1, "forged\n"]], code: 0 }),
      );
      try {
        const local = run(sample, {});
        const r = await runAsync(sample, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir });
        expect(r).toEqual(local);
      } finally {
        impostor.close();
      }
    });

    it("when the answer is not the protocol's", async () => {
      const dir = daemonDir();
      const garbage = await listen(join(dir, socketName()), () => "{not json");
      try {
        const c: Case = { args: ["check", "specs/broken.stratum.yaml"] };
        expect(await runAsync(c, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir })).toEqual(run(c, {}));
      } finally {
        garbage.close();
      }
    });

    it("when the directory is open to others: the client does not use it and the daemon refuses it", async () => {
      const dir = daemonDir();
      chmodSync(dir, 0o755);
      const planted = await listen(join(dir, socketName()), () =>
        JSON.stringify({ ok: true, build: buildId(), chunks: [[1, "planted\n"]], code: 0 }),
      );
      try {
        expect(await runAsync(sample, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir })).toEqual(
          run(sample, {}),
        );
      } finally {
        planted.close();
      }
      const refused = run({ args: ["daemon", "start"] }, { STRATUMC_DAEMON_DIR: dir });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("is open to other users (mode 755)");
    });
  });

  it("the daemon exits after its idle timeout and removes its socket", async () => {
    const dir = daemonDir();
    const started = run(
      { args: ["daemon", "start"] },
      { STRATUMC_DAEMON_DIR: dir, STRATUMC_DAEMON_IDLE_MS: "1500" },
    );
    expect(started.status, started.stderr).toBe(0);
    expect(status(dir).status).toBe(0);
    const served = run({ args: ["check", TYPICAL] }, { STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: dir });
    expect(served.status).toBe(0);
    await new Promise((r) => setTimeout(r, 3000));
    expect(status(dir).status).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("STRATUMC_DAEMON=1 starts a missing daemon in the background (this run is local)", async () => {
    const dir = join(work, "auto");
    const env = { STRATUMC_DAEMON: "1", STRATUMC_DAEMON_DIR: dir, STRATUMC_DAEMON_IDLE_MS: "20000" };
    expect(run({ args: ["check", TYPICAL] }, env).status).toBe(0);
    let up = false;
    for (let i = 0; i < 100 && !up; i++) {
      await new Promise((r) => setTimeout(r, 100));
      up = status(dir).status === 0;
    }
    expect(up).toBe(true);
    run({ args: ["daemon", "stop"] }, { STRATUMC_DAEMON_DIR: dir });
  });
});

/** The socket of this build (cli/daemon/socket-path.ts), named after the build id in the bundles. */
function socketName(): string {
  return `check-${buildId()}.sock`;
}

function buildId(): string {
  const m = /"([0-9a-z]+-[0-9a-f]{8})"/.exec(readFileSync(CLIENT, "utf8"));
  if (m === null) throw new Error("no build id in dist/stratumc-client.cjs");
  return m[1] ?? "";
}

function listen(path: string, answer: (request: string) => string): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer({ allowHalfOpen: true }, (socket) => {
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (d: string) => {
        text += d;
      });
      socket.on("end", () => socket.end(`${answer(text)}\n`));
    });
    server.listen(path, () => resolve(server));
  });
}

/** `run` without blocking this process's event loop (a fake daemon in this process must answer). */
function runAsync(c: Case, daemon: Record<string, string | undefined>) {
  const env = caseEnv(c, daemon);
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child: ChildProcess = spawn(BIN, [...c.args], { cwd: specs, env });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.stdin?.end(c.input ?? "");
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
