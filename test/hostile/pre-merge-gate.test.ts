// Hostile pre_merge_verify commands through the built stratum-mcp (docs/reference/runtime.md §23.6),
// with a fake agent writing a file in its task's worktree of a real git repository: a command that
// prints 10 MB, one that hangs with a child of its own, and one full of shell metacharacters. Each
// task ends with a gate_failed record; the output is cut to its last 2,048 characters, the hanging
// command and its child are killed at the task timeout, and no metacharacter is interpreted (no
// shell runs the command).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { processAlive } from "../host/parallel/fixtures";
import { writeFakeAgent } from "../mcp/support/fake-agent";
import { callTool } from "../mcp/support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "../mcp/support/server";

type Plain = Record<string, unknown>;

function spec(commands: readonly string[], timeout = 30): string {
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
        task_timeout: ${timeout}
        pre_merge_verify: ${JSON.stringify(commands)}
`;
}

describe("hostile pre_merge_verify commands", () => {
  let home: ReturnType<typeof tempDir>;
  let repo: ReturnType<typeof tempDir>;
  let probe: ReturnType<typeof tempDir>;
  let log: string;
  let s: RunningServer;
  const problems: string[] = [];

  beforeEach(async () => {
    home = tempDir("stratum-hostile-gate-home-");
    repo = tempDir("stratum-hostile-gate-repo-");
    probe = tempDir("stratum-hostile-gate-probe-");
    log = join(home.path, "agent.log");
    writeFileSync(log, "");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.path, stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(repo.path, "README.md"), "repo\n");
    git("add", "README.md");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init");
    problems.length = 0;
    s = await startServer({
      cwd: repo.path,
      home: home.path,
      env: {
        STRATUM_AGENT_COMMAND: writeFakeAgent(home.path),
        FAKE_AGENT_LOG: log,
        STRATUM_AGENT_ENV: "FAKE_AGENT_LOG",
      },
    });
  });

  afterEach(async () => {
    if (s.child.exitCode === null && s.child.signalCode === null) await s.closeInput();
    for (const pid of probedPids()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone, as it should be.
      }
    }
    const stderr = s.stderr();
    home.dispose();
    repo.dispose();
    probe.dispose();
    expect(unexpectedStderr(stderr)).toBe("");
    expect(problems).toEqual([]);
  });

  function probedPids(): number[] {
    const file = join(probe.path, "pids");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  }

  async function call(name: string, args: Plain): Promise<Plain> {
    const answer = await callTool(s.client, name, args, problems);
    return wireToPlain(answer.response as never) as Plain;
  }

  /** One task (the agent writes t1.txt) under the commands; the settled task entry. */
  async function gated(commands: readonly string[], timeout?: number): Promise<Plain> {
    const plan = await call("stratum_plan", { spec: spec(commands, timeout), flow: "main", inputs: {} });
    const flowId = String(plan.flow_id);
    await call("stratum_step_done", {
      flow_id: flowId,
      step_id: "analyze",
      result: { tasks: [{ id: "t1", mode: "write" }] },
    });
    expect(await call("stratum_parallel_start", { flow_id: flowId, step_id: "execute" })).toMatchObject({
      status: "started",
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const poll = await call("stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
      if (poll.outcome !== null || Date.now() > deadline) {
        expect(poll.outcome).toMatchObject({ status: "ensure_failed" });
        return (poll.tasks as Record<string, Plain>).t1 as Plain;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("a command printing 10 MB: its last 2,048 characters are kept, stdout then stderr", async () => {
    // process.exitCode, not process.exit(): node may cut what is still queued for a pipe.
    const cmd = `node -e "process.stdout.write('x'.repeat(10485760) + 'END'); process.stderr.write('E'.repeat(100)); process.exitCode = 2"`;
    const t1 = await gated([cmd]);
    const bounce = t1.gate_bounce as Plain;
    expect(bounce).toMatchObject({ reason: "gate_failed", command: cmd, exit_code: 2, files: ["t1.txt"] });
    const excerpt = String(bounce.excerpt);
    expect(excerpt.length).toBe(2048);
    expect(excerpt.endsWith(`END\n${"E".repeat(100)}`)).toBe(true);
    expect(excerpt.startsWith("x")).toBe(true);
    expect(t1).toMatchObject({ state: "failed", diff: null });
  });

  it("a command that hangs: it and its child are killed at the task timeout, exit_code null", async () => {
    const pids = join(probe.path, "pids");
    const script = `const c = require('child_process').spawn('sleep', ['60'], {stdio: 'ignore'}); require('fs').writeFileSync(process.argv[1], c.pid + ' ' + process.pid); setInterval(() => {}, 1000)`;
    const cmd = `node -e "${script}" ${pids}`;
    const began = Date.now();
    const t1 = await gated([cmd], 2);
    // The agent is quick; the command's own 2 s then SIGTERM; generous bounds on a loaded machine.
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(t1.gate_bounce).toMatchObject({
      exit_code: null,
      excerpt: `pre_merge_verify command timed out after 2s: ${cmd}`,
      files: ["t1.txt"],
    });
    expect(t1.error).toBe(`pre_merge_verify failed: ${cmd}`);
    const [child, parent] = probedPids();
    expect(child).toBeGreaterThan(0);
    expect(parent).toBeGreaterThan(0);
    expect(processAlive(child!)).toBe(false);
    expect(processAlive(parent!)).toBe(false);
  });

  it("shell metacharacters are passed as words, never interpreted", async () => {
    const cmd =
      `node -e "process.stdout.write(JSON.stringify(process.argv.slice(1))); process.exit(1)" ` +
      "; touch PWNED && echo $(touch PWNED2) | tee PWNED3 > PWNED4 `touch PWNED5` $HOME '$(x)' \"a b\"";
    const t1 = await gated([cmd]);
    expect(t1.gate_bounce).toMatchObject({ exit_code: 1, files: ["t1.txt"] });
    expect(JSON.parse(String((t1.gate_bounce as Plain).excerpt))).toEqual([
      ";",
      "touch",
      "PWNED",
      "&&",
      "echo",
      "$(touch",
      "PWNED2)",
      "|",
      "tee",
      "PWNED3",
      ">",
      "PWNED4",
      "`touch",
      "PWNED5`",
      "$HOME",
      "$(x)",
      "a b",
    ]);
    expect(readdirSync(repo.path).filter((f) => f.startsWith("PWNED"))).toEqual([]);
  });
});
