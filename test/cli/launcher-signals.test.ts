// `kill <pid>` of a long-running `stratumc` stops it: the built bin/stratumc.cjs run as a program
// (as npx, node_modules/.bin and editors start it, so /bin/sh reads its launcher part), on the path
// that starts node from the V8 startup snapshot and on the plain path. The launcher's pid gets the
// signal; the server behind it must be gone, its port closed, and the launcher's exit must say so.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { delimiter, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempTree } from "../hostile/workspace-support";
import { ensureBundle, REPO } from "./run-cli";

const LAUNCHER = join(REPO, "bin/stratumc.cjs");
/** Generous on a loaded machine: a stopped server is gone in well under a second. */
const GONE_WITHIN_MS = 8_000;

const tree = tempTree("stratumc-launcher-signals-");
afterAll(() => tree.dispose());

/** The node the build recorded for its snapshot, or null when the build made none. */
function snapshotNode(): string | null {
  const stamp = join(REPO, "dist/stratumc.blob.nodepath");
  return existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : null;
}

/** A plain shell's environment, with the snapshot's node first on PATH so the launcher may use it. */
function env(snapshot: boolean): NodeJS.ProcessEnv {
  const node = snapshotNode() ?? process.execPath;
  const e: NodeJS.ProcessEnv = {
    PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}`,
    HOME: tree.path,
    STRATUM_HOME: tree.path,
  };
  if (!snapshot) e.STRATUMC_NO_SNAPSHOT = "1";
  return e;
}

/** The pids of `pid`'s children (Linux /proc), recursively. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether something accepts connections on the port of 127.0.0.1. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** Resolves the exit, or with "still running" after GONE_WITHIN_MS. */
async function exitWithin(exited: Promise<Exit>): Promise<Exit | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still running">((resolve) => {
    timer = setTimeout(() => resolve("still running"), GONE_WITHIN_MS);
  });
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Kills whatever a failed test left behind, so it cannot hold a port or a core. */
function sweep(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** The ui through the launcher; `group`: in a process group of its own, as a terminal's foreground job. */
async function startUi(
  snapshot: boolean,
  group = false,
): Promise<{ child: ChildProcess; exited: Promise<Exit>; port: number }> {
  ensureBundle();
  const child = spawn(LAUNCHER, ["ui", "--port", "0"], {
    env: env(snapshot),
    stdio: ["ignore", "pipe", "pipe"],
    detached: group,
  });
  const exited = exitOf(child);
  let out = "";
  let err = "";
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m?.[1] !== undefined) resolve(Number(m[1]));
    });
    void exited.then((e) => reject(new Error(`stratumc ui exited (${e.code ?? e.signal}): ${err}`)));
  });
  return { child, exited, port };
}

const paths = [
  { name: "the snapshot path", snapshot: true },
  { name: "the plain path", snapshot: false },
] as const;

describe.runIf(process.platform === "linux")("kill <pid> of the launcher stops the server", () => {
  for (const path of paths) {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      it(`stratumc ui, ${signal} on ${path.name}: the port closes and no process is left`, async () => {
        const { child, exited, port } = await startUi(path.snapshot);
        const launcher = child.pid ?? -1;
        const tree = [launcher, ...descendants(launcher)];
        try {
          expect(await listening(port)).toBe(true);
          // The case tests the path it names: node started from the blob, or node exec'd in place.
          expect(tree.some((p) => cmdline(p).includes("--snapshot-blob"))).toBe(
            path.snapshot && snapshotNode() !== null,
          );
          process.kill(launcher, signal);
          const exit = await exitWithin(exited);
          expect(exit).not.toBe("still running");
          // The ui ends cleanly on SIGTERM and SIGINT (status 0); SIGHUP ends node as it ends any program.
          expect(exit).toEqual(signal === "SIGHUP" ? { code: null, signal } : { code: 0, signal: null });
          expect(tree.filter(alive)).toEqual([]);
          expect(await listening(port)).toBe(false);
        } finally {
          sweep(tree);
        }
      });
    }

    it(`stratumc ui, Ctrl-C in a terminal (SIGINT to the process group) on ${path.name}: a clean stop`, async () => {
      // The terminal signals the launcher and node alike, and the launcher passes its copy on:
      // node sees SIGINT twice and must still stop as it does on one.
      const { child, exited, port } = await startUi(path.snapshot, true);
      const launcher = child.pid ?? -1;
      const tree = [launcher, ...descendants(launcher)];
      try {
        process.kill(-launcher, "SIGINT");
        expect(await exitWithin(exited)).toEqual({ code: 0, signal: null });
        expect(tree.filter(alive)).toEqual([]);
        expect(await listening(port)).toBe(false);
      } finally {
        sweep(tree);
      }
    });

    it(`stratumc serve and lsp, SIGTERM on ${path.name}: the stdio server is gone`, async () => {
      ensureBundle();
      for (const command of ["serve", "lsp"]) {
        const child = spawn(LAUNCHER, [command], {
          env: env(path.snapshot),
          stdio: ["pipe", "pipe", "pipe"],
        });
        const exited = exitOf(child);
        const launcher = child.pid ?? -1;
        // Started once the node behind the launcher (or the launcher, exec'd) runs the server.
        let tree: number[] = [launcher];
        try {
          for (let i = 0; i < 100 && !runsNode(launcher); i++) await new Promise((r) => setTimeout(r, 50));
          tree = [launcher, ...descendants(launcher)];
          process.kill(launcher, "SIGTERM");
          const exit = await exitWithin(exited);
          expect({ command, exit }).not.toEqual({ command, exit: "still running" });
          expect({ command, left: tree.filter(alive) }).toEqual({ command, left: [] });
        } finally {
          sweep(tree);
        }
      }
    });
  }
});

/** Whether node runs at `pid` (exec'd by the launcher) or below it (started from the snapshot). */
function runsNode(pid: number): boolean {
  return [pid, ...descendants(pid)].some((p) => cmdline(p).split("\0")[0]?.endsWith("node") === true);
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}
