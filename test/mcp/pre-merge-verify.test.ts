// pre_merge_verify end to end: the built stratum-mcp over stdio with the SDK client, a fake agent
// (STRATUM_AGENT_COMMAND, support/fake-agent.ts) writing a file in its task's worktree of a real
// git repository, and gate commands run in that worktree (docs/reference/runtime.md §23.6): a
// failing command bounces its task (gate_failed record, no diff, `bounced_tasks` in the failure
// envelope); a passing one lets the task's diff be kept and the flow move on.
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
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
        isolation: worktree
        capture_diff: true
${options
  .trim()
  .split("\n")
  .map((line) => `        ${line.trim()}`)
  .join("\n")}
`;
}

/** Committed in the repository: refuses a worktree where t1.txt exists. */
const CHECK = `const fs = require("node:fs");
if (fs.existsSync("t1.txt")) { console.log("t1.txt is not allowed"); console.error("check failed"); process.exit(4); }
console.log("ok");
`;

describe("pre_merge_verify through stratum-mcp", () => {
  let home: ReturnType<typeof tempDir>;
  let repo: ReturnType<typeof tempDir>;
  let agent: string;
  let log: string;
  const servers: RunningServer[] = [];
  const problems: string[] = [];

  beforeEach(() => {
    home = tempDir("stratum-gate-home-");
    repo = tempDir("stratum-gate-repo-");
    agent = writeFakeAgent(home.path);
    log = join(home.path, "agent.log");
    writeFileSync(log, "");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.path, stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(repo.path, "check.js"), CHECK);
    git("add", "check.js");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init");
    problems.length = 0;
  });

  afterEach(async () => {
    const stderr: string[] = [];
    for (const s of servers.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) await s.closeInput();
      stderr.push(s.stderr());
    }
    home.dispose();
    repo.dispose();
    expect(unexpectedStderr(stderr.join(""))).toBe("");
    expect(problems).toEqual([]);
  });

  async function server(): Promise<RunningServer> {
    const s = await startServer({
      cwd: repo.path,
      home: home.path,
      env: { STRATUM_AGENT_COMMAND: agent, FAKE_AGENT_LOG: log, STRATUM_AGENT_ENV: "FAKE_AGENT_LOG" },
    });
    servers.push(s);
    return s;
  }

  async function call(s: RunningServer, name: string, args: Plain): Promise<Plain> {
    const answer = await callTool(s.client, name, args, problems);
    return wireToPlain(answer.response as never) as Plain;
  }

  async function run(s: RunningServer, options: string, tasks: readonly Plain[]): Promise<Plain> {
    const plan = await call(s, "stratum_plan", { spec: spec(options), flow: "main", inputs: {} });
    expect(plan.status, JSON.stringify(plan)).toBe("execute_step");
    const flowId = String(plan.flow_id);
    await call(s, "stratum_step_done", { flow_id: flowId, step_id: "analyze", result: { tasks } });
    expect(await call(s, "stratum_parallel_start", { flow_id: flowId, step_id: "execute" })).toMatchObject({
      status: "started",
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const poll = await call(s, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
      if (poll.outcome !== null || Date.now() > deadline) return poll;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("a command that exits 1 bounces the task: gate_failed record, no diff, bounced_tasks on the failure", async () => {
    const s = await server();
    const poll = await run(s, `pre_merge_verify: ["node -e process.exit(1)"]`, [{ id: "t1", mode: "write" }]);
    const t1 = (poll.tasks as Plain).t1 as Plain;
    const bounce = {
      reason: "gate_failed",
      command: "node -e process.exit(1)",
      exit_code: 1,
      files: ["t1.txt"],
      excerpt: "",
      task_id: "t1",
    };
    expect(t1).toMatchObject({
      state: "failed",
      error: "pre_merge_verify failed: node -e process.exit(1)",
      result: { wrote: "t1.txt" },
      diff: null,
      diff_error: null,
      gate_bounce: bounce,
    });
    expect(Object.keys(t1.gate_bounce as Plain)).toEqual(Object.keys(bounce));
    expect(poll.outcome).toMatchObject({
      status: "ensure_failed",
      step_id: "execute",
      bounced_tasks: [bounce],
    });
    expect((poll.outcome as { violations: string[] }).violations).toContain(
      "task 't1' failed pre-merge gate `node -e process.exit(1)` (exit 1) — diff NOT merged",
    );
    expect(readdirSync(join(home.path, "worktrees"))).toEqual([]);
  });

  it("commands that pass let a task's diff be kept; the first failing one bounces the other task", async () => {
    const s = await server();
    const poll = await run(s, `require: any\npre_merge_verify: ["node --version", "node check.js"]`, [
      { id: "t1", mode: "write" },
      { id: "t2", mode: "write" },
    ]);
    const tasks = poll.tasks as Record<string, Plain>;
    expect(tasks.t1).toMatchObject({
      state: "failed",
      error: "pre_merge_verify failed: node check.js",
      diff: null,
      gate_bounce: {
        reason: "gate_failed",
        command: "node check.js",
        exit_code: 4,
        files: ["t1.txt"],
        excerpt: "t1.txt is not allowed\n\ncheck failed\n",
        task_id: "t1",
      },
    });
    expect(tasks.t2).toMatchObject({ state: "complete", error: null });
    expect(tasks.t2).not.toHaveProperty("gate_bounce");
    expect(String(tasks.t2?.diff)).toContain("+hello t2");
    // require: any is met, so the flow moves on (no failure envelope, so no bounced_tasks).
    expect(poll.outcome).toMatchObject({ status: "complete" });
  });
});
