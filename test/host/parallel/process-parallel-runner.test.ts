// The host's ParallelAgentRunner (host/parallel/process-parallel-runner.ts): worktree, agent,
// diff, removal, on a real repository with a fake agent (STRATUM_AGENT_COMMAND).
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProcessParallelRunner, worktreeRootFor } from "../../../host/parallel/process-parallel-runner";
import type { ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { PyDict } from "../../../stdlib/values/value";
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

function request(overrides: Partial<ParallelTaskRequest> = {}): ParallelTaskRequest {
  return {
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
    ...overrides,
  };
}

/** An agent that edits a.txt, adds b.txt, reports where it ran and what the repo's a.txt was. */
function editingAgent(extra = ""): Record<string, string | undefined> {
  const script = `#!/bin/sh
echo two > a.txt
echo "new from $STRATUM_TASK_ID" > b.txt
${extra}
printf '{"cwd": "%s"}' "$(pwd)"
`;
  return { ...process.env, STRATUM_AGENT_COMMAND: writeProgram(home, "agent", script) };
}

describe("isolation: worktree", () => {
  it("runs the agent in its worktree, captures the diff, removes the worktree; the repository is untouched", async () => {
    const runner = createProcessParallelRunner({ env: editingAgent(), worktreeRoot: root });
    const outcome = await runner.runTask(request(), never);
    const path = join(root, "flow-1", "t1");
    expect(outcome).toMatchObject({ ok: true, tokens: 0, worktreePath: path, diffError: null });
    expect(outcome.ok && outcome.result instanceof PyDict).toBe(true);
    expect(outcome.diff).toContain("-one\n+two\n");
    expect(outcome.diff).toContain("+new from t1\n");
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(root, "flow-1"))).toBe(false);
    expect(linkedWorktrees(repo)).toEqual([]);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(repo, "b.txt"))).toBe(false);
  });

  it("without capture_diff there is no diff", async () => {
    const runner = createProcessParallelRunner({ env: editingAgent(), worktreeRoot: root });
    const outcome = await runner.runTask(request({ captureDiff: false }), never);
    expect(outcome).toMatchObject({ ok: true, diff: null, diffError: null });
  });

  it("a failed agent still has its diff captured and its worktree removed", async () => {
    const runner = createProcessParallelRunner({
      env: editingAgent("echo failing >&2; exit 1"),
      worktreeRoot: root,
    });
    const outcome = await runner.runTask(request(), never);
    expect(outcome).toMatchObject({ ok: false, error: "failing", worktreePath: join(root, "flow-1", "t1") });
    expect(outcome.diff).toContain("+new from t1\n");
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("a timed-out (aborted) agent: its diff is captured and its worktree removed", async () => {
    // Aborted once the agent has made its edits (a fixed delay raced them on a loaded machine).
    const ready = join(home, "edited");
    const runner = createProcessParallelRunner({
      env: editingAgent(`touch '${ready}'\nsleep 30`),
      worktreeRoot: root,
      killGraceMs: 100,
    });
    const controller = new AbortController();
    const running = runner.runTask(request(), controller.signal);
    while (!existsSync(ready)) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const outcome = await running;
    expect(outcome).toMatchObject({ ok: false, error: "cancelled" });
    expect(outcome.diff).toContain("+new from t1\n");
    expect(linkedWorktrees(repo)).toEqual([]);
  });

  it("two tasks of one flow run in separate worktrees at the same time", async () => {
    const runner = createProcessParallelRunner({ env: editingAgent(), worktreeRoot: root });
    const [one, two] = await Promise.all([
      runner.runTask(request({ taskId: "t1" }), never),
      runner.runTask(request({ taskId: "t2" }), never),
    ]);
    expect(one.diff).toContain("+new from t1\n");
    expect(two.diff).toContain("+new from t2\n");
    expect(two.diff).not.toContain("t1");
    expect(existsSync(join(root, "flow-1"))).toBe(false);
  });

  it("an unsafe task id fails the task: 'worktree setup failed: unsafe task id …', no agent runs", async () => {
    const marker = join(home, "ran");
    const env = {
      ...process.env,
      STRATUM_AGENT_COMMAND: writeProgram(home, "agent", `#!/bin/sh\ntouch ${marker}\n`),
    };
    const runner = createProcessParallelRunner({ env, worktreeRoot: root });
    expect(await runner.runTask(request({ taskId: "../escape" }), never)).toEqual({
      ok: false,
      error: "worktree setup failed: unsafe task id '../escape'",
      worktreePath: null,
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("a flow directory outside any repository: 'worktree setup failed: git worktree add failed: …'", async () => {
    const plain = tempDir("plain");
    try {
      const runner = createProcessParallelRunner({ env: editingAgent(), worktreeRoot: root });
      const outcome = await runner.runTask(request({ cwd: plain }), never);
      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && outcome.error).toMatch(
        /^worktree setup failed: git worktree add failed: fatal: not a git repository/,
      );
      expect(existsSync(join(plain, "b.txt"))).toBe(false);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe("isolation: none", () => {
  it("runs the agent in the flow's directory, with no worktree and no diff", async () => {
    writeFileSync(join(repo, "c.txt"), "x\n");
    const runner = createProcessParallelRunner({ env: editingAgent(), worktreeRoot: root });
    const outcome = await runner.runTask(request({ isolation: "none" }), never);
    expect(outcome).toMatchObject({ ok: true, worktreePath: null, diff: null });
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("two\n");
    expect(existsSync(root)).toBe(false);
  });
});

it("the default worktree root is $STRATUM_HOME/worktrees", () => {
  expect(worktreeRootFor({ STRATUM_HOME: home })).toBe(join(home, "worktrees"));
});
