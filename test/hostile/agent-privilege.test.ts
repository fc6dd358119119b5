// Least privilege for the agents of server-side parallel dispatch, through the built `stratum-mcp`
// with stub agents (STRATUM_AGENT_COMMAND) in a real git repository (docs/reference/runtime.md §23.6,
// docs/reference/runtime.md §23.10): the server's secrets never reach an agent, only the allow-list and the
// names STRATUM_AGENT_ENV adds; a server killed with SIGKILL takes its agents (and their children)
// with it; the next server removes the worktrees the killed one left.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { groupAlive, processAlive, writeProgram } from "../host/parallel/fixtures";
import { callTool } from "../mcp/support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "../mcp/support/server";

type Plain = Record<string, unknown>;

const SPEC = (isolation: string) => `version: "0.3"
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
        intent_template: "{task.id}"
        depends_on: [analyze]
        isolation: ${isolation}
`;

/** What the red-team run found in a stub agent's environment, each with a value to look for. */
const SECRETS: Readonly<Record<string, string>> = {
  AWS_SECRET_ACCESS_KEY: "secret-aws-key-1f3a",
  GITHUB_TOKEN: "secret-ghp-token-77b2",
  NPM_TOKEN: "secret-npm-token-0c9d",
  PGPASSWORD: "secret-pg-password-5e21",
  PGHOST: "secret-pg-host.internal",
  OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer secret-otel-bearer-93aa",
  STRATUMC_UI_TOKEN: "secret-ui-token-4d4d",
  SSH_AUTH_SOCK: "/tmp/secret-ssh-agent.sock",
  ANTHROPIC_API_KEY: "secret-sk-ant-8080",
  OPENAI_API_KEY: "secret-sk-oai-9090",
  SOME_OTHER_SETTING: "secret-unlisted-6161",
};

describe("the privileges of server-side agents", () => {
  let home: ReturnType<typeof tempDir>;
  let repo: ReturnType<typeof tempDir>;
  let probe: ReturnType<typeof tempDir>;
  const servers: RunningServer[] = [];
  const problems: string[] = [];

  beforeEach(() => {
    home = tempDir("stratum-privilege-home-");
    repo = tempDir("stratum-privilege-repo-");
    probe = tempDir("stratum-privilege-probe-");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.path, stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(repo.path, "README.md"), "repo\n");
    git("add", "README.md");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init");
    problems.length = 0;
  });

  afterEach(async () => {
    for (const s of servers.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) await s.closeInput();
    }
    for (const pid of probedPids()) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Gone, as it should be.
      }
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone.
      }
    }
    home.dispose();
    repo.dispose();
    probe.dispose();
    expect(problems).toEqual([]);
  });

  function probedPids(): number[] {
    const file = join(probe.path, "pids");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  }

  async function server(env: Record<string, string>): Promise<RunningServer> {
    const s = await startServer({ cwd: repo.path, home: home.path, env });
    servers.push(s);
    return s;
  }

  async function call(s: RunningServer, name: string, args: Plain): Promise<Plain> {
    const answer = await callTool(s.client, name, args, problems);
    return wireToPlain(answer.response as never) as Plain;
  }

  async function startOneTask(s: RunningServer, isolation: string): Promise<string> {
    const plan = await call(s, "stratum_plan", { spec: SPEC(isolation), flow: "main", inputs: {} });
    const flowId = String(plan.flow_id);
    await call(s, "stratum_step_done", {
      flow_id: flowId,
      step_id: "analyze",
      result: { tasks: [{ id: "t1" }] },
    });
    expect(await call(s, "stratum_parallel_start", { flow_id: flowId, step_id: "execute" })).toMatchObject({
      status: "started",
    });
    return flowId;
  }

  async function settled(s: RunningServer, flowId: string): Promise<Plain> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const poll = await call(s, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
      if (poll.outcome !== null || Date.now() > deadline) return poll;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("no secret of the server reaches an agent; the allow-list and STRATUM_AGENT_ENV's names do", async () => {
    // The agent writes its whole environment to PROBE_DIR, a name the setting passes.
    const agent = writeProgram(
      probe.path,
      "dump-env-agent",
      `#!/usr/bin/env node
require("node:fs").writeFileSync(process.env.PROBE_DIR + "/env.json", JSON.stringify(process.env));
process.stdout.write("{}");
`,
    );
    const s = await server({
      ...SECRETS,
      // The store's location and the home: with either, an agent could approve its own gates.
      STRATUM_STORE: home.path,
      STRATUM_HOME: home.path,
      STRATUM_AGENT_COMMAND: agent,
      STRATUM_AGENT_ENV: "PROBE_DIR, TEAM_*, STRATUM_STORE, PG*, *",
      PROBE_DIR: probe.path,
      TEAM_REGION: "eu-west",
      TZ: "Europe/Paris",
      LC_ALL: "C.UTF-8",
    });
    const flowId = await startOneTask(s, "none");
    expect((await settled(s, flowId)).outcome).toMatchObject({ status: "complete" });

    const text = readFileSync(join(probe.path, "env.json"), "utf8");
    const env = JSON.parse(text) as Record<string, string>;
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(env[name], name).toBeUndefined();
      expect(text.includes(value), `the value of ${name}`).toBe(false);
    }
    expect(env.STRATUM_STORE).toBeUndefined();
    expect(env.STRATUM_HOME).toBeUndefined();
    expect(text.includes(home.path)).toBe(false);
    // The allow-list, the task's ids, the agent string, and what the setting adds.
    expect(env).toMatchObject({
      PATH: process.env.PATH,
      TZ: "Europe/Paris",
      LC_ALL: "C.UTF-8",
      STRATUM_FLOW_ID: flowId,
      STRATUM_STEP_ID: "execute",
      STRATUM_TASK_ID: "t1",
      STRATUM_AGENT: "claude",
      PROBE_DIR: probe.path,
      TEAM_REGION: "eu-west",
    });
    // Nothing else but what a shell sets by itself.
    const expected = new Set([
      ...["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "LC_ALL", "PROBE_DIR", "TEAM_REGION"],
      ...["STRATUM_FLOW_ID", "STRATUM_STEP_ID", "STRATUM_TASK_ID", "STRATUM_AGENT", "PWD", "SHLVL", "_"],
    ]);
    expect(Object.keys(env).filter((k) => !expected.has(k))).toEqual([]);

    // The listed entries that are never passed are said once, at start.
    await s.closeInput();
    const stderr = unexpectedStderr(s.stderr());
    expect(stderr).toContain("STRATUM_AGENT_ENV: STRATUM_STORE is never passed to agents");
    expect(stderr).toContain("STRATUM_AGENT_ENV: PG* is ignored");
    expect(stderr).toContain("STRATUM_AGENT_ENV: '*' is ignored");
  }, 60_000);

  it("a server killed with SIGKILL takes its agent and the agent's children along; the next server removes the worktree", async () => {
    // The agent ignores SIGTERM (only the SIGKILL after the grace period ends it); its child does not.
    const agent = writeProgram(
      probe.path,
      "sleeping-agent",
      `#!/bin/sh
trap '' TERM
sleep 300 &
echo $$ $! > "$PROBE_DIR/pids.tmp"
mv "$PROBE_DIR/pids.tmp" "$PROBE_DIR/pids"
wait
`,
    );
    const env = { STRATUM_AGENT_COMMAND: agent, STRATUM_AGENT_ENV: "PROBE_DIR", PROBE_DIR: probe.path };
    const first = await server(env);
    const flowId = await startOneTask(first, "worktree");
    const worktree = join(home.path, "worktrees", flowId, "t1");
    expect(await waitFor(() => probedPids().length === 2, 15_000)).toBe(true);
    const [agentPid, childPid] = probedPids() as [number, number];
    expect(existsSync(worktree)).toBe(true);

    await first.kill();
    // The grace period (5 s) from SIGTERM to SIGKILL, with room for a loaded machine.
    const gone = () => !processAlive(agentPid) && !processAlive(childPid) && !groupAlive(agentPid);
    expect(await waitFor(gone, 5_000 + 10_000)).toBe(true);
    expect(existsSync(worktree)).toBe(true);

    // A new server on the same home: the dead server's worktree goes, and git forgets it.
    const second = await server(env);
    expect(await waitFor(() => !existsSync(join(home.path, "worktrees", flowId)), 10_000)).toBe(true);
    expect(
      await waitFor(() => {
        const list = execFileSync("git", ["worktree", "list", "--porcelain"], {
          cwd: repo.path,
          encoding: "utf8",
        });
        return list.split("\n").filter((l) => l.startsWith("worktree ")).length === 1;
      }, 10_000),
    ).toBe(true);
    expect(readdirSync(join(home.path, "worktrees"))).toEqual([]);
    const poll = await call(second, "stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
    expect((poll.tasks as Record<string, Plain>).t1).toMatchObject({
      state: "failed",
      error: "server restart interrupted task",
    });
  }, 60_000);

  it.skipIf(!bwrapUsable)(
    "the documented bubblewrap wrapper confines an agent to its worktree",
    async () => {
      // The documented script, with the agent it starts replaced by a probe committed to the repository
      // (the only program the sandbox can see there besides the system's): it writes in its worktree,
      // tries to write the repository and the store, and reports what it saw.
      const script = documentedSandboxScript();
      expect(script).toContain("  claude -p --permission-mode acceptEdits\n");
      const wrapper = join(probe.path, "stratum-agent-bwrap");
      writeFileSync(
        wrapper,
        script.replace("  claude -p --permission-mode acceptEdits\n", "  ./probe-agent\n"),
      );
      chmodSync(wrapper, 0o755);
      writeFileSync(
        join(repo.path, "probe-agent"),
        `#!/bin/sh
read -r store repo
echo made > made-inside.txt
flows=hidden; if [ -e "$store" ]; then flows=visible; fi
# Writes outside the worktree land nowhere real (a read-only file system, or the sandbox's own empty /tmp and home).
mkdir -p "$store" 2>/dev/null; echo x > "$store/escape.json" 2>/dev/null
echo x > "$repo/escape.txt" 2>/dev/null
status=$(git status --porcelain | tr '\\n' ' ')
printf '{"flows": "%s", "status": "%s"}' "$flows" "$status"
`,
      );
      chmodSync(join(repo.path, "probe-agent"), 0o755);
      execFileSync("git", ["add", "probe-agent"], { cwd: repo.path });
      execFileSync(
        "git",
        ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "probe"],
        {
          cwd: repo.path,
        },
      );
      const s = await server({ STRATUM_AGENT_COMMAND: wrapper });
      const plan = await call(s, "stratum_plan", {
        spec: SPEC("worktree\n        capture_diff: true").replace('"{task.id}"', '"{task.probe}"'),
        flow: "main",
        inputs: {},
      });
      const flowId = String(plan.flow_id);
      const probeLine = `${join(home.path, "flows")} ${repo.path}`;
      await call(s, "stratum_step_done", {
        flow_id: flowId,
        step_id: "analyze",
        result: { tasks: [{ id: "t1", probe: probeLine }] },
      });
      expect(await call(s, "stratum_parallel_start", { flow_id: flowId, step_id: "execute" })).toMatchObject({
        status: "started",
      });
      const poll = await settled(s, flowId);
      const t1 = (poll.tasks as Record<string, Plain>).t1 as Plain;
      expect(t1).toMatchObject({
        state: "complete",
        result: { flows: "hidden", status: "?? made-inside.txt " },
      });
      expect(String(t1.diff)).toContain("made-inside.txt");
      expect(existsSync(join(repo.path, "escape.txt"))).toBe(false);
      expect(existsSync(join(home.path, "flows"))).toBe(true);
    },
    60_000,
  );
});

/** The bubblewrap script of docs/reference/runtime.md §23.6, as documented. */
function documentedSandboxScript(): string {
  const doc = readFileSync(join(import.meta.dirname, "../../docs/reference/runtime.md"), "utf8");
  const m =
    /<!-- agent-sandbox-example: start -->\n```sh\n([\s\S]*?)```\n<!-- agent-sandbox-example: end -->/.exec(
      doc,
    );
  if (m?.[1] === undefined) throw new Error("the sandbox example is missing from docs/reference/runtime.md");
  return m[1];
}

/** bwrap is installed and may create namespaces here (it cannot in some containers). */
const bwrapUsable =
  process.platform === "linux" &&
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"], {
    stdio: "ignore",
  }).status === 0;

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
