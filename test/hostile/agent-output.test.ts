// Agent output is untrusted data: the built stratum-mcp runs a stub agent (STRATUM_AGENT_COMMAND,
// agent-stub.ts) that prints JSON nested 512 to 20,000 levels deep, a million values, more than
// the output limit, or text. Before, a 2,000-level result was refused by the flow file's writer
// and the refusal dropped: the task stayed `running` for ever, the tasks after it never started
// and poll answered `running` until a restart; a 1,010-level result was stored and poll on the
// step never answered. Now such output fails its task with the reason, the slot is freed, poll
// answers and the flow goes on. `max_concurrent` is capped by STRATUM_MAX_AGENTS: a spec asking
// for 60 never runs more agents at once than the cap. A task entry the store cannot take (a full
// disk) fails the task with the store's reason instead of leaving it `running`. Needs the build.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { ensureBundle } from "../cli/run-cli";
import { callTool } from "../mcp/support/mcp-api";
import { RawSession, toolContent } from "../mcp/support/raw-session";
import { MCP_BIN } from "../mcp/support/server";
import { type AgentStub, writeAgentStub } from "./agent-stub";
import { leaks, type Sandbox, sandbox } from "./mcp-support";

type Plain = Record<string, unknown>;

/** A decompose step, the parallel step `execute` (isolation none) and an inline step after it. */
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
        intent_template: "{task.mode}"
        isolation: none
        depends_on: [analyze]
${options
  .trim()
  .split("\n")
  .map((line) => `        ${line.trim()}`)
  .join("\n")}
      - id: last
        intent: "Last"
        depends_on: [execute]
`;
}

const tooDeep = (depth: number) =>
  `result: nested ${depth.toLocaleString("en-US")} levels deep; the limit is 512`;

let box: Sandbox;
let stub: AgentStub;
let server: RawSession;
let nextId = 0;

beforeAll(async () => {
  box = sandbox("stratum-hostile-agent-");
  stub = writeAgentStub(join(box.root, "stub"));
  server = new RawSession(box, { env: { STRATUM_AGENT_COMMAND: stub.path, STRATUM_MAX_AGENTS: "2" } });
  await server.initialize();
});

afterAll(async () => {
  await server?.closeInput();
  box?.dispose();
});

async function call(name: string, args: Plain, ms = 20_000): Promise<Plain> {
  const answer = await server.request(`c${++nextId}`, "tools/call", { name, arguments: args }, ms);
  expect(leaks(JSON.stringify(answer))).toEqual([]);
  return toolContent(answer);
}

/** plan, the decompose step's task list, then stratum_parallel_start. */
async function started(options: string, tasks: readonly Plain[]): Promise<string> {
  const plan = await call("stratum_plan", { spec: spec(options), flow: "main", inputs: {} });
  const flowId = String(plan.flow_id);
  const payload = await call("stratum_step_done", { flow_id: flowId, step_id: "analyze", result: { tasks } });
  expect(payload).toMatchObject({ status: "parallel_dispatch", step_id: "execute" });
  const start = await call("stratum_parallel_start", { flow_id: flowId, step_id: "execute" });
  expect(start).toMatchObject({ status: "started", task_count: tasks.length });
  return flowId;
}

/** Polls until the step has an outcome; every poll must be answered within 20 s. */
async function settled(flowId: string): Promise<Plain> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const poll = await call("stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
    if (poll.outcome !== null) return poll;
    if (Date.now() > deadline) throw new Error(`no outcome: ${JSON.stringify(poll).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const task = (poll: Plain, id: string) => (poll.tasks as Record<string, Plain>)[id] as Plain;

/** Levels of arrays in a value (`[]` is 1), without recursion. */
function arrayDepth(value: unknown): number {
  let depth = 0;
  for (let at = value; Array.isArray(at); at = at[0]) depth++;
  return depth;
}

describe("deep agent output", () => {
  it("1,010, 2,000 and 20,000 levels fail their task with the reason; the next task starts, poll answers, the flow goes on", async () => {
    const flowId = await started("max_concurrent: 1\nrequire: any", [
      { id: "d1010", mode: "array 1010" },
      { id: "d2000", mode: "array 2000" },
      { id: "d20000", mode: "array 20000" },
      { id: "o2000", mode: "object 2000" },
      { id: "next", mode: "ok" },
    ]);
    const poll = await settled(flowId);
    for (const [id, depth] of [
      ["d1010", 1_010],
      ["d2000", 2_000],
      ["d20000", 20_000],
      ["o2000", 2_000],
    ] as const) {
      expect(task(poll, id), id).toMatchObject({ state: "failed", result: null, error: tooDeep(depth) });
    }
    expect(task(poll, "next")).toMatchObject({ state: "complete", result: { done: "next" } });
    expect(poll.summary).toEqual({
      pending: 0,
      running: 0,
      complete: 1,
      failed: 4,
      cancelled: 0,
      skipped: 0,
      reparenting: 0,
    });
    expect(poll.outcome).toMatchObject({ status: "execute_step", step_id: "last" });
    const done = await call("stratum_step_done", { flow_id: flowId, step_id: "last", result: {} });
    expect(done).toMatchObject({ status: "complete" });
    expect(server.stderr).toBe("");
  }, 60_000);

  it("exactly 512 levels is a result, stored and answered by poll; 513 fails", async () => {
    const flowId = await started("require: any", [
      { id: "at", mode: "array 512" },
      { id: "over", mode: "array 513" },
    ]);
    const poll = await settled(flowId);
    expect(task(poll, "at")).toMatchObject({ state: "complete", error: null });
    expect(arrayDepth(task(poll, "at").result)).toBe(512);
    expect(task(poll, "over")).toMatchObject({ state: "failed", result: null, error: tooDeep(513) });
    expect(poll.outcome).toMatchObject({ status: "execute_step", step_id: "last" });
    // The stored flow loads again (a restarted server would read the same file).
    expect(await call("stratum_resume", { flow_id: flowId })).toMatchObject({ step_id: "last" });
  }, 60_000);
});

describe("large and malformed agent output", () => {
  it("a million values and more than the output limit fail their task; text that is not JSON is a text result", async () => {
    const flowId = await started("require: any", [
      { id: "values", mode: "values 1000001" },
      { id: "bytes", mode: `bytes ${16 * 1024 * 1024 + 1}` },
      { id: "text", mode: "text" },
    ]);
    const poll = await settled(flowId);
    expect(task(poll, "values")).toMatchObject({
      state: "failed",
      result: null,
      error: "result: 1,000,001 values; the limit is 1,000,000",
    });
    expect(task(poll, "bytes")).toMatchObject({ state: "failed", result: null });
    expect(String(task(poll, "bytes").error)).toMatch(/^agent output exceeded 16,777,216 bytes/);
    expect(task(poll, "text")).toMatchObject({ state: "complete", result: "not json: {[ at all" });
    expect(poll.outcome).toMatchObject({ status: "execute_step", step_id: "last" });
  }, 60_000);
});

describe("max_concurrent is capped by STRATUM_MAX_AGENTS", () => {
  it("a spec asking for 60 runs at most 2 agents at once under a cap of 2", async () => {
    const tasks = Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, mode: "count 400" }));
    const flowId = await started("max_concurrent: 60", tasks);
    const poll = await settled(flowId);
    expect(poll.summary).toEqual({
      pending: 0,
      running: 0,
      complete: 8,
      failed: 0,
      cancelled: 0,
      skipped: 0,
      reparenting: 0,
    });
    expect(stub.maxRunning()).toBeGreaterThanOrEqual(1);
    expect(stub.maxRunning()).toBeLessThanOrEqual(2);
  }, 60_000);
});

/** Whether this machine lets an unprivileged process mount a tmpfs in its own namespaces. */
const canMount =
  process.platform === "linux" &&
  spawnSync("unshare", ["-rm", "sh", "-c", 'd=$(mktemp -d) && mount -t tmpfs -o size=16k tmpfs "$d"'], {
    stdio: "ignore",
  }).status === 0;

describe("a task entry the store cannot take", () => {
  it.runIf(canMount)(
    "a full disk fails the task with the store's reason and one line on stderr; the next task starts",
    async () => {
      ensureBundle();
      const root = sandbox("stratum-hostile-agent-full-");
      const home = join(root.root, "full-home");
      mkdirSync(home);
      const agent = writeAgentStub(join(root.root, "stub"));
      // The server in a private mount namespace with a 1 MiB tmpfs as its STRATUM_HOME.
      const transport = new StdioClientTransport({
        command: "unshare",
        args: [
          "-rm",
          "sh",
          "-c",
          'mount -t tmpfs -o size=1m tmpfs "$0" && exec "$1" "$2"',
          home,
          process.execPath,
          MCP_BIN,
        ],
        cwd: root.cwd,
        env: {
          STRATUM_HOME: home,
          STRATUM_AGENT_COMMAND: agent.path,
          PATH: process.env.PATH ?? "/usr/bin:/bin",
        },
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const client = new Client({ name: "stratumc-hostile", version: "0.0.0" });
      await client.connect(transport);
      const problems: string[] = [];
      const tool = async (name: string, args: Plain) =>
        wireToPlain((await callTool(client, name, args, problems)).response as never) as Plain;
      try {
        const plan = await tool("stratum_plan", {
          spec: spec("max_concurrent: 1\nrequire: any"),
          flow: "main",
          inputs: {},
        });
        const flowId = String(plan.flow_id);
        const tasks = [
          { id: "big", mode: "string 2000000" },
          { id: "next", mode: "ok" },
        ];
        expect(
          await tool("stratum_step_done", { flow_id: flowId, step_id: "analyze", result: { tasks } }),
        ).toMatchObject({
          status: "parallel_dispatch",
        });
        expect(await tool("stratum_parallel_start", { flow_id: flowId, step_id: "execute" })).toMatchObject({
          status: "started",
        });
        const deadline = Date.now() + 40_000;
        let poll: Plain;
        for (;;) {
          poll = await tool("stratum_parallel_poll", { flow_id: flowId, step_id: "execute" });
          if (poll.outcome !== null || Date.now() > deadline) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const big = task(poll, "big");
        expect(big).toMatchObject({ state: "failed", result: null });
        expect(String(big.error)).toMatch(
          new RegExp(
            `^could not store the task's entry: cannot write the flow store at ${home}/flows/\\S+: no space left on device \\(ENOSPC\\)$`,
          ),
        );
        expect(task(poll, "next")).toMatchObject({ state: "complete", result: { done: "next" } });
        expect(poll.outcome).toMatchObject({ status: "execute_step", step_id: "last" });
        const lines = stderr.split("\n").filter((l) => l.includes("ENOSPC"));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^stratum-mcp: parallel task 'big' of step 'execute' in flow \S+: /);
        expect(problems).toEqual([]);
      } finally {
        await client.close();
        root.dispose();
      }
    },
    60_000,
  );
});
