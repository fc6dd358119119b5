// Server-side parallel dispatch end to end: the built stratum-mcp over stdio with the SDK client,
// its agent runner running a fake agent (STRATUM_AGENT_COMMAND, support/fake-agent.ts) in a real
// temporary git repository: worktrees with captured diffs, `require: any`, `max_concurrent: 1`,
// `task_timeout`, `defer_advance` with stratum_parallel_advance, shutdown, and a server killed in
// the middle while a second server shares the store (docs/reference/runtime.md §23.5 to docs/reference/runtime.md §23.11).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { writeFakeAgent } from "./support/fake-agent";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

type Plain = Record<string, unknown>;

function spec(options: string): string {
  return `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
flows:
  main:
    input: {}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break down"
        output_contract: TaskGraph
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        intent_template: "{task.mode} {task.id}"
        depends_on: [analyze]
${options
  .trim()
  .split("\n")
  .map((line) => `        ${line.trim()}`)
  .join("\n")}
`;
}

describe("server-side parallel dispatch through stratum-mcp", () => {
  let home: ReturnType<typeof tempDir>;
  let repo: ReturnType<typeof tempDir>;
  let agent: string;
  let log: string;
  const servers: RunningServer[] = [];
  const problems: string[] = [];

  beforeEach(() => {
    home = tempDir("stratum-dispatch-home-");
    repo = tempDir("stratum-dispatch-repo-");
    agent = writeFakeAgent(home.path);
    log = join(home.path, "agent.log");
    writeFileSync(log, "");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.path, stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(repo.path, "README.md"), "repo\n");
    git("add", "README.md");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init");
    problems.length = 0;
  });

  afterEach(async () => {
    const stderr: string[] = [];
    for (const s of servers.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) await s.closeInput();
      stderr.push(s.stderr());
    }
    // Agents a killed server left behind.
    for (const pid of agentPids()) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    home.dispose();
    repo.dispose();
    expect(unexpectedStderr(stderr.join(""))).toBe("");
    expect(problems).toEqual([]);
  });

  function agentPids(): number[] {
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("pid "))
      .map((l) => Number(l.slice(4)));
  }

  async function server(env: Record<string, string> = {}): Promise<RunningServer> {
    const s = await startServer({
      cwd: repo.path,
      home: home.path,
      env: { STRATUM_AGENT_COMMAND: agent, FAKE_AGENT_LOG: log, STRATUM_AGENT_ENV: "FAKE_AGENT_LOG", ...env },
    });
    servers.push(s);
    return s;
  }

  async function call(s: RunningServer, name: string, args: Plain): Promise<Plain> {
    const answer = await callTool(s.client, name, args, problems);
    return wireToPlain(answer.response as never) as Plain;
  }

  /** plan, then the decompose step's result: the flow stands at `execute`. */
  async function dispatched(s: RunningServer, options: string, tasks: readonly Plain[]): Promise<string> {
    const plan = await call(s, "stratum_plan", { spec: spec(options), flow: "main", inputs: {} });
    const flowId = String(plan.flow_id);
    const payload = await call(s, "stratum_step_done", {
      flow_id: flowId,
      step_id: "analyze",
      result: { tasks },
    });
    expect(payload).toMatchObject({ status: "parallel_dispatch", step_id: "execute" });
    return flowId;
  }

  async function start(s: RunningServer, flowId: string): Promise<Plain> {
    return call(s, "stratum_parallel_start", { flow_id: flowId, step_id: "execute" });
  }

  /** Polls until every task has settled (outcome set), at most 20 s. */
  async function settled(s: RunningServer, flowId: string): Promise<Plain> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const poll = await call(s, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
      if (poll.outcome !== null || Date.now() > deadline) return poll;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function untilRunning(s: RunningServer, flowId: string, n: number): Promise<Plain> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const poll = await call(s, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
      const running = (poll.summary as Plain | undefined)?.running;
      if ((running === n && agentPids().length >= n) || Date.now() > deadline) return poll;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  function task(poll: Plain, id: string): Plain {
    return (poll.tasks as Plain)[id] as Plain;
  }

  it("runs tasks in worktrees, captures their diffs and removes the worktrees", async () => {
    const s = await server();
    const flowId = await dispatched(s, "isolation: worktree\ncapture_diff: true", [
      { id: "t1", mode: "write" },
      { id: "t2", mode: "write" },
    ]);
    expect(await start(s, flowId)).toEqual({
      status: "started",
      flow_id: flowId,
      step_id: "execute",
      task_count: 2,
      tasks: ["t1", "t2"],
    });
    const poll = await settled(s, flowId);
    expect(Object.values(poll.tasks as Plain).map((t) => (t as Plain).error)).toEqual([null, null]);
    expect(poll.summary).toEqual({
      pending: 0,
      running: 0,
      complete: 2,
      failed: 0,
      cancelled: 0,
      skipped: 0,
      reparenting: 0,
    });
    for (const id of ["t1", "t2"]) {
      const entry = task(poll, id);
      expect(entry).toMatchObject({ state: "complete", result: { wrote: `${id}.txt` }, diff_error: null });
      expect(entry.worktree_path).toBe(join(home.path, "worktrees", flowId, id));
      expect(entry.diff).toContain(`+++ b/${id}.txt`);
      expect(entry.diff).toContain(`+hello ${id}`);
      expect(existsSync(String(entry.worktree_path))).toBe(false);
    }
    expect(poll.outcome).toMatchObject({ status: "complete" });
    expect(readdirSync(join(home.path, "worktrees"))).toEqual([]);
    const worktrees = execFileSync("git", ["worktree", "list"], { cwd: repo.path, encoding: "utf8" });
    expect(worktrees.trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(repo.path, "t1.txt"))).toBe(false);
  }, 60_000);

  it("require: any advances with one failed task; max_concurrent: 1 runs one at a time", async () => {
    const s = await server();
    const anyFlow = await dispatched(s, "isolation: none\nrequire: any", [
      { id: "good", mode: "ok" },
      { id: "bad", mode: "fail" },
    ]);
    expect(await start(s, anyFlow)).toMatchObject({ status: "started" });
    const any = await settled(s, anyFlow);
    expect(task(any, "bad")).toMatchObject({ state: "failed", error: "task bad failed on purpose" });
    expect(task(any, "good")).toMatchObject({ state: "complete", result: { done: "good" } });
    expect(any).toMatchObject({
      require_satisfied: true,
      can_advance: true,
      outcome: { status: "complete" },
    });

    writeFileSync(log, "");
    const serial = await dispatched(s, "isolation: none\nmax_concurrent: 1", [
      { id: "a", mode: "slow" },
      { id: "b", mode: "slow" },
      { id: "c", mode: "slow" },
    ]);
    expect(await start(s, serial)).toMatchObject({ status: "started" });
    expect(await settled(s, serial)).toMatchObject({ outcome: { status: "complete" } });
    const order = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("start ") || l.startsWith("end "));
    expect(order).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  }, 60_000);

  it("fails a task past task_timeout and stops its agent", async () => {
    const s = await server();
    const flowId = await dispatched(s, "isolation: none\ntask_timeout: 1", [{ id: "t1", mode: "hang" }]);
    expect(await start(s, flowId)).toMatchObject({ status: "started" });
    const poll = await settled(s, flowId);
    expect(task(poll, "t1")).toMatchObject({ state: "failed", error: "timeout after 1s" });
    expect(poll.outcome).toMatchObject({
      status: "ensure_failed",
      violations: ["require='all' not satisfied: 0 completed, 1 failed"],
    });
    expect(processAlive(agentPids()[0]!)).toBe(false);
  }, 60_000);

  it("defer_advance: a conflict blocks the advance, a clean merge after the re-run advances", async () => {
    const s = await server();
    const flowId = await dispatched(s, "isolation: none\ndefer_advance: true", [{ id: "t1", mode: "ok" }]);
    const advance = (merge: string) =>
      call(s, "stratum_parallel_advance", { flow_id: flowId, step_id: "execute", merge_status: merge });
    expect(await start(s, flowId)).toMatchObject({ status: "started" });
    expect((await settled(s, flowId)).outcome).toMatchObject({ status: "awaiting_consumer_advance" });
    const conflict = await advance("conflict");
    expect(conflict).toMatchObject({
      status: "ensure_failed",
      step_id: "execute",
      violations: ["merge conflict: merge_status='conflict'"],
    });
    // The retry dispatched the step anew: its entries are gone and it can be started again.
    expect(await advance("clean")).toMatchObject({ error_type: "step_not_dispatched" });
    expect(await start(s, flowId)).toMatchObject({ status: "started" });
    expect((await settled(s, flowId)).outcome).toMatchObject({ status: "awaiting_consumer_advance" });
    expect(await advance("clean")).toMatchObject({ status: "complete" });
  }, 60_000);

  it("at shutdown stops the agents and records their tasks as failed", async () => {
    const s = await server();
    const flowId = await dispatched(s, "isolation: worktree", [{ id: "t1", mode: "hang" }]);
    expect(await start(s, flowId)).toMatchObject({ status: "started" });
    await untilRunning(s, flowId, 1);
    const began = Date.now();
    expect(await s.closeInput()).toBe(0);
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(processAlive(agentPids()[0]!)).toBe(false);
    const next = await server();
    const poll = await call(next, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
    expect(task(poll, "t1")).toMatchObject({ state: "failed", error: "server shutdown interrupted task" });
    expect(existsSync(join(home.path, "worktrees", flowId))).toBe(false);
  }, 60_000);

  it("on SIGTERM does the same, then ends by the signal", async () => {
    const s = await server();
    const flowId = await dispatched(s, "isolation: none", [{ id: "t1", mode: "hang" }]);
    expect(await start(s, flowId)).toMatchObject({ status: "started" });
    await untilRunning(s, flowId, 1);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(null);
    expect(s.child.signalCode).toBe("SIGTERM");
    expect(processAlive(agentPids()[0]!)).toBe(false);
    const next = await server();
    const poll = await call(next, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
    expect(task(poll, "t1")).toMatchObject({ state: "failed", error: "server shutdown interrupted task" });
  }, 60_000);

  it("after its server is killed, another server marks the tasks interrupted, never while it lives", async () => {
    const first = await server();
    const flowId = await dispatched(first, "isolation: none", [
      { id: "t1", mode: "hang-once" },
      { id: "t2", mode: "ok", depends_on: ["t1"] },
    ]);
    expect(await start(first, flowId)).toMatchObject({ status: "started" });
    await untilRunning(first, flowId, 1);

    // A second live server on the same store leaves the first one's tasks alone.
    const second = await server();
    const watching = await call(second, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
    expect(watching.summary).toMatchObject({ running: 1, pending: 1 });
    expect(await start(second, flowId)).toMatchObject({ error_type: "already_started" });

    await first.kill();
    const poll = await call(second, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
    expect(task(poll, "t1")).toMatchObject({ state: "failed", error: "server restart interrupted task" });
    expect(task(poll, "t2")).toMatchObject({ state: "failed", error: "server restart interrupted task" });
    expect(poll.outcome).toMatchObject({ status: "ensure_failed" });

    // The retry re-dispatched the step: it runs again, here on a freshly started server.
    await second.closeInput();
    const third = await server();
    expect(await start(third, flowId)).toMatchObject({ status: "started" });
    const rerun = await settled(third, flowId);
    expect(task(rerun, "t1")).toMatchObject({ state: "complete", result: "second run" });
    expect(rerun.outcome).toMatchObject({ status: "complete" });
  }, 60_000);
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
