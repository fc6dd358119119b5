// stratum_agent_run and stratum_cancel_agent_run end to end (docs/reference/runtime.md §16.6): the
// built stratum-mcp over stdio, its agent a fake program (STRATUM_AGENT_COMMAND) that acts on the
// prompt's first word. Text and JSON answers, context before the prompt, the scrubbed
// environment, a failing agent, a cwd outside the workspace, a hanging agent cancelled while the
// server answers other calls (its whole process group stopped), a flow's run budget charged by the
// runs its correlation id names, and the refused 0.2.69 tools.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { REFUSED_TOOLS } from "../../mcp/refused-tools";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

type Plain = Record<string, unknown>;

const AGENT = `#!/bin/sh
prompt=$(cat)
log=$FAKE_AGENT_LOG
echo "pid $$" >> "$log"
case "$prompt" in
  json*) printf 'Here it is:\\n\`\`\`json\\n{"a": 1}\\n\`\`\`\\n\`\`\`json\\n{"ok": true, "n": 1.0}\\n\`\`\`\\n' ;;
  env*) echo "type=$STRATUM_AGENT model=$STRATUM_AGENT_MODEL store=\${STRATUM_STORE:-none} secret=\${SECRET_TOKEN:-none} tools=$STRATUM_AGENT_ALLOWED_TOOLS" ;;
  pwd*) pwd ;;
  fail*) echo "agent broke on purpose" >&2; exit 4 ;;
  hang*) (sleep 60; echo late >> "$log") & echo "child $!" >> "$log"; sleep 60 ;;
  *) printf '%s' "$prompt" ;;
esac
`;

describe("stratum_agent_run through stratum-mcp", () => {
  let home: ReturnType<typeof tempDir>;
  let work: ReturnType<typeof tempDir>;
  let log: string;
  let server: RunningServer;
  const problems: string[] = [];

  beforeEach(async () => {
    home = tempDir("stratum-agent-run-home-");
    work = tempDir("stratum-agent-run-work-");
    const agent = join(home.path, "agent.sh");
    writeFileSync(agent, AGENT);
    chmodSync(agent, 0o755);
    log = join(home.path, "agent.log");
    writeFileSync(log, "");
    mkdirSync(join(work.path, "sub"));
    problems.length = 0;
    server = await startServer({
      cwd: work.path,
      home: home.path,
      env: {
        STRATUM_AGENT_COMMAND: agent,
        FAKE_AGENT_LOG: log,
        STRATUM_AGENT_ENV: "FAKE_AGENT_LOG",
        SECRET_TOKEN: "s3cret",
        STRATUM_STORE: home.path,
      },
    });
  });

  afterEach(async () => {
    await server.closeInput();
    const stderr = server.stderr();
    for (const pid of pids("pid ")) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    home.dispose();
    work.dispose();
    expect(unexpectedStderr(stderr)).toBe("");
    expect(problems).toEqual([]);
  });

  function pids(prefix: string): number[] {
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.startsWith(prefix))
      .map((l) => Number(l.slice(prefix.length)));
  }

  async function call(name: string, args: Plain): Promise<{ response: Plain; isError: boolean }> {
    const answer = await callTool(server.client, name, args, problems);
    return { response: wireToPlain(answer.response as never) as Plain, isError: answer.isError };
  }

  it("answers the agent's text with a correlation id, context first", async () => {
    const { response } = await call("stratum_agent_run", {
      prompt: "say hello",
      context: "you review FEAT-1",
      correlation_id: "run-1",
    });
    expect(response).toEqual({ text: "you review FEAT-1\n\nsay hello", correlation_id: "run-1" });
    const fresh = await call("stratum_agent_run", { prompt: "hi", context: "   " });
    expect(fresh.response.text).toBe("hi");
    expect(fresh.response.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("charges a budgeted flow named by the correlation id, and refuses the run once a cap is reached", async () => {
    const spec = `version: "0.2"
contracts:
  Out:
    n: {type: integer}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
flows:
  main:
    input: {}
    budget: {max_agent_dispatches: 2}
    steps:
      - id: s1
        function: work
        inputs: {}
`;
    const plan = await call("stratum_plan", { spec, flow: "main", inputs: {} });
    const flowId = String(plan.response.flow_id);
    // The second run fails (the agent exits 4): it is charged all the same.
    for (const prompt of ["first", "fail now"]) {
      await call("stratum_agent_run", { prompt, correlation_id: flowId });
    }
    const started = pids("pid ").length;
    const refused = await call("stratum_agent_run", { prompt: "third", correlation_id: flowId });
    expect(refused.response).toMatchObject({
      status: "budget_exhausted",
      text: "",
      correlation_id: flowId,
      budget_state: { caps: { max_agent_dispatches: 2 }, consumed: { dispatches: 2 } },
    });
    expect(pids("pid ")).toHaveLength(started);
    const step = await call("stratum_step_done", { flow_id: flowId, step_id: "s1", result: { n: 1 } });
    expect(step.response).toMatchObject({ status: "budget_exhausted", flow_id: flowId });
    // Runs whose correlation id names no budgeted flow are unbounded.
    expect(
      (await call("stratum_agent_run", { prompt: "free", correlation_id: "not-a-flow" })).response,
    ).toEqual({
      text: "free",
      correlation_id: "not-a-flow",
    });
  });

  it("reads the last json block as the result when a schema is given", async () => {
    const { response } = await call("stratum_agent_run", {
      prompt: "json please",
      schema: { type: "object" },
    });
    expect(response.result).toEqual({ ok: true, n: 1 });
    const raw = await callTool(server.client, "stratum_agent_run", { prompt: "json", schema: {} }, problems);
    expect(raw.text).toContain('"n": 1.0');
    const notJson = await call("stratum_agent_run", { prompt: "plain words", schema: {} });
    expect(notJson.response).toMatchObject({
      text: "plain words",
      result: null,
      parseError: "Response was not valid JSON",
    });
  });

  it("gives the agent a scrubbed environment and the call's settings", async () => {
    const { response } = await call("stratum_agent_run", {
      prompt: "env",
      type: "codex",
      modelID: "gpt-5.4",
      model_id: "ignored",
      allowed_tools: ["Read", "Bash(git diff:*)"],
    });
    expect(response.text).toBe(
      "type=codex model=gpt-5.4 store=none secret=none tools=Read\nBash(git diff:*)",
    );
  });

  it("runs in a cwd inside the workspace and refuses one outside", async () => {
    const inside = await call("stratum_agent_run", { prompt: "pwd", cwd: "sub" });
    expect(String(inside.response.text)).toMatch(/\/sub$/);
    const outside = await call("stratum_agent_run", { prompt: "pwd", cwd: home.path });
    expect(outside.response).toMatchObject({ status: "error", error_type: "invalid_arguments" });
    expect(String(outside.response.message)).toContain("outside the workspace root");
  });

  it("refuses a blank prompt, an unknown type and a read jail; reports a failing agent", async () => {
    const blank = await call("stratum_agent_run", { prompt: "  " });
    expect(blank.isError).toBe(true);
    expect(blank.response.message).toBe("prompt: stratum_agent_run: prompt is required");
    const type = await call("stratum_agent_run", { prompt: "x", type: "gemini" });
    expect(type.response.message).toBe("type: unknown type 'gemini'. Valid types: 'claude', 'codex'");
    const jail = await call("stratum_agent_run", { prompt: "x", read_jail: "/tmp" });
    expect(jail.response.error_type).toBe("invalid_arguments");
    const failed = await call("stratum_agent_run", { prompt: "fail", correlation_id: "f" });
    expect(failed.response).toEqual({
      status: "error",
      error_type: "agent_failed",
      message: "stratum_agent_run (claude): agent broke on purpose",
      correlation_id: "f",
    });
  });

  it("cancels a hanging run and its process group while other calls are answered", async () => {
    const running = call("stratum_agent_run", { prompt: "hang", correlation_id: "long" });
    await waitFor(() => pids("child ").length === 1);
    // The server is not held by the running agent.
    const other = await call("stratum_validate", { spec: "version: '0.1'\nflows: {}\n" });
    expect(other.response).toHaveProperty("valid");
    const again = await call("stratum_agent_run", { prompt: "hang", correlation_id: "long" });
    expect(again.response.error_type).toBe("agent_run_in_progress");
    expect((await call("stratum_cancel_agent_run", { correlation_id: "long" })).response).toEqual({
      status: "cancelled",
      correlation_id: "long",
    });
    expect((await running).response).toMatchObject({
      status: "error",
      error_type: "agent_cancelled",
      correlation_id: "long",
    });
    const [child] = pids("child ");
    await waitFor(() => !alive(child ?? 0));
    expect((await call("stratum_cancel_agent_run", { correlation_id: "long" })).response).toEqual({
      status: "not_found",
      correlation_id: "long",
    });
  });

  it("stops the agent's process group when the client cancels the call itself", async () => {
    const controller = new AbortController();
    const running = server.client.callTool(
      { name: "stratum_agent_run", arguments: { prompt: "hang", correlation_id: "abandoned" } },
      undefined,
      { signal: controller.signal },
    );
    await waitFor(() => pids("child ").length === 1);
    controller.abort();
    await expect(running).rejects.toThrow();
    const [child] = pids("child ");
    await waitFor(() => !alive(child ?? 0));
    // The run is forgotten once its process has ended (a cancel of it then finds nothing).
    for (let i = 0; i < 100; i++) {
      const status = (await call("stratum_cancel_agent_run", { correlation_id: "abandoned" })).response
        .status;
      if (status === "not_found") break;
      await new Promise((r) => setTimeout(r, 100));
      if (i === 99) throw new Error("the abandoned run is still registered");
    }
  });

  it("answers every refused tool with tool_not_supported naming its version, and keeps them out of tools/list", async () => {
    const listed = (await server.client.listTools()).tools.map((t) => t.name);
    expect(listed).toEqual(expect.arrayContaining(["stratum_agent_run", "stratum_cancel_agent_run"]));
    for (const [name, { since }] of REFUSED_TOOLS) {
      expect(listed).not.toContain(name);
      const { response, isError } = await call(name, { anything: 1 });
      expect(isError).toBe(false);
      expect(response).toMatchObject({
        status: "error",
        error_type: "tool_not_supported",
        tool: name,
        since,
      });
      expect(String(response.message)).toContain(`stratum-mcp ${since}`);
    }
    expect(REFUSED_TOOLS.size).toBe(14);
    await expect(server.client.callTool({ name: "stratum_nonsense", arguments: {} })).rejects.toThrow(
      /Unknown tool: stratum_nonsense/,
    );
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return existsSync(`/proc/${pid}`) ? !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ") : true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}
