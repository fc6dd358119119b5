// The agent process runner (host/parallel/agent-runner.ts, docs/reference/runtime.md §23.6), with fake agent
// programs written by the tests: STRATUM_AGENT_COMMAND scripts, and fake `claude` / `codex`
// programs found on PATH.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AgentTaskRequest, runAgentTask } from "../../../host/parallel/agent-runner";
import { groupAlive, processAlive, tempDir, writeProgram } from "./fixtures";

let dir: string;
let work: string;
beforeEach(() => {
  dir = tempDir("agents");
  work = tempDir("work");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const never = new AbortController().signal;

function request(overrides: Partial<AgentTaskRequest> = {}): AgentTaskRequest {
  return {
    flowId: "flow-1",
    stepId: "execute",
    taskId: "t1",
    prompt: "do the thing",
    agent: null,
    cwd: work,
    timeoutSeconds: 30,
    ...overrides,
  };
}

/** The server's environment with STRATUM_AGENT_COMMAND set to a script. */
function withCommand(script: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, STRATUM_AGENT_COMMAND: writeProgram(dir, "agent", script), ...extra };
}

async function waitUntil(check: () => boolean, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe("STRATUM_AGENT_COMMAND: the prompt on stdin, the result on stdout", () => {
  it("stdout that is JSON is the result as a JSON value", async () => {
    const env = withCommand('#!/bin/sh\ncat >/dev/null\nprintf \'{"files": ["a.py"], "n": 2}\\n\'\n');
    const run = await runAgentTask(request(), never, { env });
    expect(run).toMatchObject({ ok: true, result: { files: ["a.py"], n: 2 }, tokens: 0 });
    expect(run.elapsedS).toBeGreaterThan(0);
  });

  it("other stdout is the result as text (trimmed); the prompt arrives on stdin", async () => {
    const env = withCommand('#!/bin/sh\nprintf "got: "\ncat\necho\n');
    const run = await runAgentTask(request({ prompt: "-- not an option --" }), never, { env });
    expect(run).toMatchObject({ ok: true, result: "got: -- not an option --" });
  });

  it("runs in the given working directory", async () => {
    const env = withCommand("#!/bin/sh\npwd\n");
    expect(await runAgentTask(request(), never, { env })).toMatchObject({ ok: true, result: work });
  });

  it("a non-zero exit fails the task with stderr, or with the exit code when stderr is empty", async () => {
    let env = withCommand("#!/bin/sh\necho partial\necho 'it broke' >&2\nexit 3\n");
    expect(await runAgentTask(request(), never, { env })).toMatchObject({ ok: false, error: "it broke" });
    env = withCommand("#!/bin/sh\nexit 4\n");
    expect(await runAgentTask(request(), never, { env })).toMatchObject({
      ok: false,
      error: "agent command exited with code 4",
    });
  });

  it("a program killed by a signal", async () => {
    const env = withCommand("#!/bin/sh\nkill -SEGV $$\n");
    expect(await runAgentTask(request(), never, { env })).toMatchObject({
      ok: false,
      error: "agent command killed by SIGSEGV",
    });
  });

  it("a missing program fails the task with a clear text", async () => {
    const env = { ...process.env, STRATUM_AGENT_COMMAND: join(dir, "no-such-agent") };
    expect(await runAgentTask(request(), never, { env })).toMatchObject({
      ok: false,
      error: `STRATUM_AGENT_COMMAND '${join(dir, "no-such-agent")}' not found (not on PATH, or no such file)`,
    });
  });

  it("a working directory that does not exist", async () => {
    const env = withCommand("#!/bin/sh\necho hi\n");
    const missing = join(work, "gone");
    expect(await runAgentTask(request({ cwd: missing }), never, { env })).toMatchObject({
      ok: false,
      error: `working directory '${missing}' does not exist`,
    });
  });

  it("the override runs whatever the agent string says, and passes it as STRATUM_AGENT", async () => {
    const env = withCommand('#!/bin/sh\necho "$STRATUM_AGENT"\n');
    expect(await runAgentTask(request({ agent: "myteam:reviewer" }), never, { env })).toMatchObject({
      ok: true,
      result: "myteam:reviewer",
    });
  });
});

describe("the agent's environment", () => {
  it("is an allow-list: not the four credentials, not an unlisted name; a listed name and the task ids", async () => {
    const env = withCommand(
      `#!/usr/bin/env node
const keys = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "CLAUDE_API_KEY", "CLAUDECODE", "KEEP_ME", "DROP_ME",
  "STRATUM_FLOW_ID", "STRATUM_STEP_ID", "STRATUM_TASK_ID"];
process.stdout.write(JSON.stringify(Object.fromEntries(keys.map((k) => [k, process.env[k] ?? null]))));
`,
      {
        ANTHROPIC_API_KEY: "sk-ant",
        OPENAI_API_KEY: "sk-oai",
        CLAUDE_API_KEY: "sk-cl",
        CLAUDECODE: "1",
        KEEP_ME: "kept",
        DROP_ME: "dropped",
        STRATUM_AGENT_ENV: "KEEP_ME",
        STRATUM_TASK_ID: "stale",
      },
    );
    const run = await runAgentTask(request({ flowId: "F9", stepId: "fan", taskId: "task-7" }), never, {
      env,
    });
    expect(run).toMatchObject({
      ok: true,
      result: {
        ANTHROPIC_API_KEY: null,
        OPENAI_API_KEY: null,
        CLAUDE_API_KEY: null,
        CLAUDECODE: null,
        KEEP_ME: "kept",
        DROP_ME: null,
        STRATUM_FLOW_ID: "F9",
        STRATUM_STEP_ID: "fan",
        STRATUM_TASK_ID: "task-7",
      },
    });
  });
});

describe("time limit and cancellation stop the whole process group", () => {
  // The agent ignores SIGTERM (and so does the child it started), so only SIGKILL ends them.
  const stubborn = (pidFile: string) =>
    `#!/bin/sh\ntrap '' TERM\nsleep 60 &\necho $$ $! > "${pidFile}"\nwait\nwait\n`;
  /** Both the agent and the child it started are gone. */
  const allGone = (pidFile: string) => {
    const [agent, child] = readFileSync(pidFile, "utf8").trim().split(" ").map(Number) as [number, number];
    return waitUntil(() => !groupAlive(agent) && !processAlive(agent) && !processAlive(child));
  };

  it("the time limit: SIGTERM, then SIGKILL after the grace period; 'timeout after <n>s'", async () => {
    const pidFile = join(dir, "pid");
    const env = withCommand(stubborn(pidFile));
    const started = Date.now();
    const run = await runAgentTask(request({ timeoutSeconds: 0.3 }), never, { env, killGraceMs: 200 });
    expect(run).toMatchObject({ ok: false, error: "timeout after 0.3s" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(480);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await allGone(pidFile)).toBe(true);
  });

  it("an agent that stops on SIGTERM is not waited for", async () => {
    const env = withCommand("#!/bin/sh\nsleep 60\n");
    const started = Date.now();
    const run = await runAgentTask(request({ timeoutSeconds: 0.2 }), never, { env, killGraceMs: 10_000 });
    expect(run).toMatchObject({ ok: false, error: "timeout after 0.2s" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("cancellation through the AbortSignal", async () => {
    const pidFile = join(dir, "pid");
    const env = withCommand(stubborn(pidFile));
    const controller = new AbortController();
    const pending = runAgentTask(request(), controller.signal, { env, killGraceMs: 200 });
    expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "")).toBe(true);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: "cancelled" });
    expect(await allGone(pidFile)).toBe(true);
  });

  it("an already aborted signal starts nothing", async () => {
    const marker = join(dir, "ran");
    const env = withCommand(`#!/bin/sh\ntouch "${marker}"\n`);
    expect(await runAgentTask(request(), AbortSignal.abort(), { env })).toMatchObject({
      ok: false,
      error: "cancelled",
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("what the agent left running when it exited is killed, and does not hold the task", async () => {
    const pidFile = join(dir, "bg");
    const env = withCommand(`#!/bin/sh\nsleep 60 &\necho $! > "${pidFile}"\necho done\n`);
    const started = Date.now();
    expect(await runAgentTask(request(), never, { env })).toMatchObject({ ok: true, result: "done" });
    expect(Date.now() - started).toBeLessThan(3_000);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(await waitUntil(() => !processAlive(pid))).toBe(true);
  });
});

describe("output is bounded", () => {
  it("stdout beyond the limit fails the task and stops the agent at once", async () => {
    const env = withCommand("#!/bin/sh\nexec yes\n");
    const started = Date.now();
    const run = await runAgentTask(request(), never, { env, maxOutputBytes: 100_000, killGraceMs: 200 });
    expect(run).toMatchObject({ ok: false, error: "agent output exceeded 100,000 bytes" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("stdout within the limit is kept whole", async () => {
    const env = withCommand("#!/bin/sh\nhead -c 50000 /dev/zero | tr '\\0' 'x'\n");
    const run = await runAgentTask(request(), never, { env, maxOutputBytes: 50_000 });
    expect(run.ok && typeof run.result === "string" && run.result.length).toBe(50_000);
  });

  it("a huge stderr keeps only its end", async () => {
    const env = withCommand(
      "#!/bin/sh\nhead -c 200000 /dev/zero | tr '\\0' 'e' >&2\necho ' the end' >&2\nexit 1\n",
    );
    const run = await runAgentTask(request(), never, { env });
    expect(run.ok).toBe(false);
    if (!run.ok) {
      expect(run.error.length).toBeLessThanOrEqual(64 * 1024);
      expect(run.error.endsWith("the end")).toBe(true);
    }
  });
});

describe("picking the agent program from the agent string", () => {
  /** A PATH holding only fake `claude` and `codex` programs (and the basic tools they use). */
  function fakePath(claude: string, codex: string): string {
    writeProgram(dir, "claude", claude);
    writeProgram(dir, "codex", codex);
    return `${dir}:/usr/bin:/bin`;
  }
  const recordArgs = (name: string) =>
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(dir, `${name}.args`)}"\ncat > "${join(dir, `${name}.stdin`)}"\n`;

  it("claude (the default): print mode, JSON output, edits accepted, the prompt on stdin, $CLAUDE_MODEL", async () => {
    const claude = `${recordArgs("claude")}printf '%s' '{"type":"result","subtype":"success","is_error":false,"result":"All done.","usage":{"input_tokens":120,"output_tokens":30,"cache_read_input_tokens":999}}'\n`;
    const env = { PATH: fakePath(claude, ""), CLAUDE_MODEL: "opus" };
    const run = await runAgentTask(request({ prompt: "fix it" }), never, { env });
    expect(run).toMatchObject({ ok: true, result: "All done.", tokens: 150 });
    expect(readFileSync(join(dir, "claude.args"), "utf8").split("\n")).toEqual([
      "-p",
      "--output-format",
      "json",
      "--permission-mode",
      "acceptEdits",
      "--model",
      "opus",
      "",
    ]);
    expect(readFileSync(join(dir, "claude.stdin"), "utf8")).toBe("fix it");
  });

  it("claude's is_error answer fails the task with its text; tokens still count", async () => {
    const claude = `#!/bin/sh\nprintf '%s' '{"type":"result","subtype":"success","is_error":true,"result":"API Error: overloaded","usage":{"input_tokens":5,"output_tokens":1}}'\nexit 1\n`;
    const env = { PATH: fakePath(claude, ""), STRATUM_DEFAULT_AGENT: "claude:fast" };
    expect(await runAgentTask(request(), never, { env })).toMatchObject({
      ok: false,
      error: "API Error: overloaded",
      tokens: 6,
    });
  });

  it("claude without a JSON answer", async () => {
    let env = { PATH: fakePath("#!/bin/sh\necho 'Error: not logged in' >&2\nexit 1\n", "") };
    expect(await runAgentTask(request({ agent: "claude" }), never, { env })).toMatchObject({
      ok: false,
      error: "Error: not logged in",
    });
    env = { PATH: fakePath("#!/bin/sh\necho 'plain words'\n", "") };
    expect(await runAgentTask(request({ agent: "claude" }), never, { env })).toMatchObject({
      ok: false,
      error: "claude printed no JSON result: plain words",
    });
  });

  it("codex: exec --json in the working directory, the prompt on stdin, $CODEX_MODEL with its effort", async () => {
    const events = [
      { type: "thread.started", thread_id: "th_1" },
      { type: "turn.started" },
      { type: "item.completed", item: { id: "i0", type: "reasoning", text: "thinking" } },
      { type: "item.completed", item: { id: "i1", type: "agent_message", text: "Part one. " } },
      { type: "item.completed", item: { id: "i2", type: "agent_message", text: "Part two." } },
      { type: "turn.completed", usage: { input_tokens: 100, cached_input_tokens: 50, output_tokens: 7 } },
    ];
    const codex = `${recordArgs("codex")}cat <<'EOF'\n${events.map((e) => JSON.stringify(e)).join("\n")}\nEOF\n`;
    const env = { PATH: fakePath("", codex), CODEX_MODEL: "gpt-5.1-codex/high" };
    const run = await runAgentTask(request({ agent: "codex", prompt: "go" }), never, { env });
    expect(run).toMatchObject({ ok: true, result: "Part one. Part two.", tokens: 107 });
    expect(readFileSync(join(dir, "codex.args"), "utf8").split("\n")).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--sandbox",
      "workspace-write",
      "-C",
      work,
      "-m",
      "gpt-5.1-codex",
      "-c",
      'model_reasoning_effort="high"',
      "-",
      "",
    ]);
    expect(readFileSync(join(dir, "codex.stdin"), "utf8")).toBe("go");
  });

  it("codex's failed turn or error event fails the task; a transient error before a completed turn does not", async () => {
    const failing = [
      { type: "turn.started" },
      { type: "turn.failed", error: { message: "stream disconnected" } },
    ];
    let env = {
      PATH: fakePath(
        "",
        `#!/bin/sh\ncat <<'EOF'\n${failing.map((e) => JSON.stringify(e)).join("\n")}\nEOF\nexit 1\n`,
      ),
    };
    expect(await runAgentTask(request({ agent: "codex:x" }), never, { env })).toMatchObject({
      ok: false,
      error: "stream disconnected",
    });
    const recovered = [
      { type: "error", message: "Reconnecting... 1/5" },
      { type: "item.completed", item: { type: "agent_message", text: "ok" } },
      { type: "turn.completed", usage: { input_tokens: 1, output_tokens: 1 } },
    ];
    env = {
      PATH: fakePath(
        "",
        `#!/bin/sh\ncat <<'EOF'\n${recovered.map((e) => JSON.stringify(e)).join("\n")}\nEOF\n`,
      ),
    };
    expect(await runAgentTask(request({ agent: "codex" }), never, { env })).toMatchObject({
      ok: true,
      result: "ok",
    });
    env = { PATH: fakePath("", "#!/bin/sh\necho 'codex: bad flag' >&2\nexit 2\n") };
    expect(await runAgentTask(request({ agent: "codex" }), never, { env })).toMatchObject({
      ok: false,
      error: "codex: bad flag",
    });
  });

  it("a missing claude or codex program: the 'not found on PATH' texts", async () => {
    const env = { PATH: dir };
    expect(await runAgentTask(request(), never, { env })).toMatchObject({
      ok: false,
      error:
        "claude: claude binary not found on PATH. Install Claude Code: npm i -g @anthropic-ai/claude-code",
    });
    expect(await runAgentTask(request({ agent: "codex" }), never, { env })).toMatchObject({
      ok: false,
      error:
        "codex: codex binary not found on PATH. Install with: npm i -g @openai/codex  (or: brew install codex)",
    });
  });

  it("opencode and unknown prefixes fail the task with the reference's texts", async () => {
    const env = { PATH: dir };
    expect(await runAgentTask(request({ agent: "opencode:gpt" }), never, { env })).toMatchObject({
      ok: false,
      error:
        "parallel_dispatch agent 'opencode:gpt' uses opencode, which is not yet supported in server-side dispatch (see roadmap T2-F5-OPENCODE-DISPATCH). Use 'claude' or 'codex', or keep consumer-side dispatch for this step.",
    });
    expect(await runAgentTask(request({ agent: "gemini" }), never, { env })).toMatchObject({
      ok: false,
      error: "parallel_dispatch agent 'gemini' has unknown connector prefix; expected 'claude' or 'codex'",
    });
    expect(
      await runAgentTask(request({ agent: null }), never, {
        env: { PATH: dir, STRATUM_DEFAULT_AGENT: "opencode" },
      }),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^parallel_dispatch agent 'opencode' uses opencode/),
    });
  });
});
