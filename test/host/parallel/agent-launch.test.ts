// How an agent is started (host/parallel/agent-launch.ts, docs/reference/runtime.md §23.6): the program looked
// up as execvp does, so that missing and non-executable programs are still "not started"; and the
// watcher that ends the agent's group when the process that started it dies.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lookUpProgram } from "../../../host/parallel/agent-launch";
import { runProcess } from "../../../host/parallel/agent-process";
import { bundleChild } from "../../interpreter/store/child-bundle";
import { groupAlive, processAlive, tempDir, writeProgram } from "./fixtures";

let dir: string;
beforeEach(() => {
  dir = tempDir("launch");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("lookUpProgram", () => {
  it("finds the first executable file on PATH, skipping directories and non-executable files", () => {
    const a = join(dir, "a");
    const b = join(dir, "b");
    const c = join(dir, "c");
    mkdirSync(join(a, "tool"), { recursive: true });
    mkdirSync(b);
    writeFileSync(join(b, "tool"), "#!/bin/sh\n", { mode: 0o644 });
    mkdirSync(c);
    const tool = writeProgram(c, "tool", "#!/bin/sh\n");
    expect(lookUpProgram("tool", [a, b, c].join(":"), dir)).toEqual({ ok: true, path: tool });
  });

  it("ENOENT when nothing is found, EACCES when only non-executable files are", () => {
    expect(lookUpProgram("nope", dir, dir)).toMatchObject({ ok: false, code: "ENOENT" });
    writeFileSync(join(dir, "plain"), "x", { mode: 0o644 });
    expect(lookUpProgram("plain", dir, dir)).toMatchObject({ ok: false, code: "EACCES" });
    expect(lookUpProgram(join(dir, "plain"), "/bin", "/")).toMatchObject({ ok: false, code: "EACCES" });
  });

  it("a name with a slash is a path, relative to the working directory; PATH is not searched", () => {
    const tool = writeProgram(dir, "tool", "#!/bin/sh\n");
    expect(lookUpProgram("./tool", "/bin", dir)).toEqual({ ok: true, path: tool });
    expect(lookUpProgram("./tool", dir, "/")).toMatchObject({ ok: false, code: "ENOENT" });
  });

  it("an empty PATH entry is the working directory", () => {
    const tool = writeProgram(dir, "tool", "#!/bin/sh\n");
    expect(lookUpProgram("tool", "/nonexistent:", dir)).toEqual({ ok: true, path: tool });
  });
});

describe("the agent runs as the program itself, under a watcher", () => {
  it("keeps the pid, the exit status, the standard streams; and a program that is not executable is not started", async () => {
    const program = writeProgram(dir, "agent", '#!/bin/sh\necho "$$"\ncat\necho err >&2\nexit 7\n');
    const spec = { program, args: [], cwd: dir, env: { PATH: process.env.PATH ?? "" }, input: "in" };
    const limits = {
      timeoutMs: 10_000,
      killGraceMs: 1_000,
      maxStdoutBytes: 1 << 20,
      maxStderrBytes: 1 << 20,
    };
    const ending = await runProcess(spec, limits);
    expect(ending).toMatchObject({ kind: "exited", code: 7, signal: null, stderr: "err\n" });
    if (ending.kind !== "exited") return;
    const [pid, input] = ending.stdout.split("\n");
    expect(Number(pid)).toBeGreaterThan(0);
    expect(input).toBe("in");
    writeFileSync(join(dir, "plain"), "x", { mode: 0o644 });
    expect(await runProcess({ ...spec, program: join(dir, "plain") }, limits)).toMatchObject({
      kind: "not-started",
      code: "EACCES",
    });
  });

  it("when the process that started it dies by SIGKILL, the agent's whole group ends after the grace period", async () => {
    // A parent process that runs an agent (which ignores SIGTERM and starts a child), then waits.
    const pids = join(dir, "pids");
    const agent = writeProgram(
      dir,
      "agent",
      `#!/bin/sh\ntrap '' TERM\nsleep 300 &\necho $$ $! > "${pids}.tmp"\nmv "${pids}.tmp" "${pids}"\nwait\n`,
    );
    const { bundle, dir: bundleDir } = await bundleChild(join(import.meta.dirname, "agent-parent-child.ts"));
    const child = spawn(process.execPath, [bundle, agent, dir], { stdio: "ignore" });
    try {
      expect(await waitFor(() => readText(pids) !== null, 15_000)).toBe(true);
      const [agentPid, sleepPid] = (readText(pids) ?? "").trim().split(" ").map(Number) as [number, number];
      expect(processAlive(agentPid) && processAlive(sleepPid)).toBe(true);
      child.kill("SIGKILL");
      // Grace 1 s; bounded generously for a loaded machine.
      const gone = () => !processAlive(agentPid) && !processAlive(sleepPid) && !groupAlive(agentPid);
      expect(await waitFor(gone, 1_000 + 10_000)).toBe(true);
    } finally {
      child.kill("SIGKILL");
      rmSync(bundleDir, { recursive: true, force: true });
    }
  }, 30_000);
});

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
