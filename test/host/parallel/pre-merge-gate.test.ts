// The host's side of pre_merge_verify (host/parallel/pre-merge-gate.ts through
// process-parallel-runner.ts) on a real repository with a fake agent: the gate runs only when the
// executor accepts the result, with the agent's environment (not the server's secrets), in the
// worktree with the flow's node_modules linked in; a program that cannot be found, a command that
// cannot be split, and an abort during a command.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProcessParallelRunner } from "../../../host/parallel/process-parallel-runner";
import type { ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { linkedWorktrees, makeRepo, tempDir, writeProgram } from "./fixtures";

let repo: string;
let home: string;
let root: string;
beforeEach(() => {
  repo = makeRepo();
  home = tempDir("home");
  root = join(home, "worktrees");
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const never = new AbortController().signal;

function request(commands: readonly string[], accepts = true, overrides: Partial<ParallelTaskRequest> = {}) {
  const seen: unknown[] = [];
  const r: ParallelTaskRequest = {
    flowId: "flow-1",
    stepId: "execute",
    taskId: "t1",
    task: null,
    prompt: "edit",
    agent: null,
    cwd: repo,
    isolation: "worktree",
    captureDiff: true,
    timeoutSeconds: 30,
    gate: {
      commands,
      accepts: (result) => {
        seen.push(result);
        return accepts;
      },
    },
    ...overrides,
  };
  return { request: r, seen };
}

/** An agent that adds b.txt and reports `{}`; the server's environment holds a secret. */
function env(): Record<string, string | undefined> {
  const agent = writeProgram(home, "agent", "#!/bin/sh\necho new > b.txt\nprintf '{}'\n");
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    STRATUM_AGENT_COMMAND: agent,
    STRATUM_STORE: "/secret/store",
    SERVER_SECRET: "s3cr3t",
  };
}

describe("the pre-merge gate on the host", () => {
  it("runs with the agent's environment, not the server's", async () => {
    const runner = createProcessParallelRunner({ env: env(), worktreeRoot: root });
    const dump = `node -e "process.stdout.write(JSON.stringify(process.env)); process.exitCode = 1"`;
    const { request: r, seen } = request([dump]);
    const outcome = await runner.runTask(r, never);
    expect(seen).toHaveLength(1);
    expect(outcome).toMatchObject({
      ok: true,
      diff: null,
      gateBounce: { command: dump, exitCode: 1, files: ["b.txt"] },
    });
    const gateEnv = JSON.parse(outcome.ok ? (outcome.gateBounce?.excerpt ?? "") : "") as Record<
      string,
      string
    >;
    expect(gateEnv).toMatchObject({
      STRATUM_TASK_ID: "t1",
      STRATUM_FLOW_ID: "flow-1",
      STRATUM_STEP_ID: "execute",
    });
    expect(gateEnv).not.toHaveProperty("SERVER_SECRET");
    expect(gateEnv).not.toHaveProperty("STRATUM_STORE");
    expect(existsSync(join(root, "flow-1", "t1"))).toBe(false);
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("is not run when the executor does not accept the result; the diff is captured", async () => {
    const marker = join(home, "ran");
    const runner = createProcessParallelRunner({ env: env(), worktreeRoot: root });
    const { request: r, seen } = request([`touch ${marker}`], false);
    const outcome = await runner.runTask(r, never);
    expect(seen).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
    expect(outcome).toMatchObject({ ok: true, gateBounce: null });
    expect(outcome.diff).toContain("+new\n");
  });

  it("passing commands run in order in the worktree, with the flow's node_modules linked in", async () => {
    mkdirSync(join(repo, "node_modules"));
    writeFileSync(join(repo, "node_modules", "marker"), "from the repo\n");
    const out = join(home, "order");
    const runner = createProcessParallelRunner({ env: env(), worktreeRoot: root });
    const append = (what: string) => `node -e "require('fs').appendFileSync('${out}', ${what} + '\\n')"`;
    const { request: r } = request([
      append("'first ' + process.cwd()"),
      append("require('fs').readFileSync('node_modules/marker', 'utf8').trim()"),
    ]);
    const outcome = await runner.runTask(r, never);
    expect(outcome).toMatchObject({ ok: true, gateBounce: null });
    expect(readFileSync(out, "utf8")).toBe(`first ${join(root, "flow-1", "t1")}\nfrom the repo\n`);
    // The link was there for the commands only (the repository does not ignore it): not in the diff.
    expect(outcome.diff).toContain("b/b.txt");
    expect(outcome.diff).not.toContain("node_modules");
  });

  it("a program that is not found is exit 127; an unclosed quote makes the whole command the program", async () => {
    const runner = createProcessParallelRunner({ env: env(), worktreeRoot: root });
    const first = await runner.runTask(request(["no-such-program-9f2 --flag"]).request, never);
    expect(first.ok && first.gateBounce).toEqual({
      command: "no-such-program-9f2 --flag",
      exitCode: 127,
      files: ["b.txt"],
      excerpt: "command not found: [Errno 2] No such file or directory: 'no-such-program-9f2'",
    });
    const second = await runner.runTask(request(["echo 'unclosed"]).request, never);
    expect(second.ok && second.gateBounce).toMatchObject({
      exitCode: 127,
      excerpt: `command not found: [Errno 2] No such file or directory: "echo 'unclosed"`,
    });
  });

  it("an abort during a command stops it: no bounce, the worktree removed", async () => {
    const runner = createProcessParallelRunner({ env: env(), worktreeRoot: root, killGraceMs: 500 });
    const controller = new AbortController();
    const started = join(home, "started");
    const { request: r } = request([
      `node -e "require('fs').writeFileSync('${started}', ''); setInterval(() => {}, 1000)"`,
    ]);
    const running = runner.runTask(r, controller.signal);
    const deadline = Date.now() + 10_000;
    while (!existsSync(started) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    controller.abort();
    const outcome = await running;
    expect(outcome).toMatchObject({ ok: true, gateBounce: null });
    expect(linkedWorktrees(repo)).toEqual([]);
  });
});
