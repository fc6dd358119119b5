// The tool annotations (mcp/tool-annotations.ts) against what the tools do: each tool is called
// through the MCP server over a file store and a workspace folder. A read-only tool leaves both
// byte-identical; an idempotent one, called again, leaves every flow's state (as the store gives it
// back, revision aside: the journal records even a change to the same state) and the workspace as
// its first call left them; a non-idempotent one is shown changing a flow on a repeat; a
// non-destructive one only extends the flow's trace; a destructive one is shown ending or rewinding
// a flow or replacing a file. The parallel tools and the agent tools need agents: not run here.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { encodeFlowState } from "../../interpreter/store/codec";
import { decodeStoredFlow } from "../../interpreter/store/stored-state";
import { createMcpServer } from "../../mcp/server";
import { TOOLS } from "../../mcp/tools";
import { makeTestApi, type TestApi, tempFileStore } from "../interpreter/support/make-test-api";
import { tempDir } from "./support/server";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: integer}
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Out
    ensure:
      - "result.v > 0"
    retries: 5
  sign_off:
    mode: gate
    timeout: 60
flows:
  main:
    input: {}
    steps:
      - id: a
        function: work
        inputs: {}
      - id: hunt
        intent: "Hunt"
        max_iterations: 5
        depends_on: [a]
      - id: approve
        function: sign_off
        on_approve: ~
        on_revise: a
        on_kill: ~
        depends_on: [hunt]
`;

const SPECKIT = join(
  import.meta.dirname,
  "../conformance/recorded/scenarios/fixtures/compile_speckit_ok/tasks",
);

type Plain = Record<string, unknown>;

/** Every file under `dir`, path → content. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(path.slice(dir.length), readFileSync(path, "latin1"));
    }
  };
  walk(dir);
  return out;
}

interface World {
  readonly call: (name: string, args: Plain) => Promise<Plain>;
  /** The store and the workspace, byte for byte. */
  readonly bytes: () => Map<string, string>;
  /** Every flow's state as the store gives it back (revision 0), and the workspace's files. */
  readonly state: () => Promise<Map<string, string>>;
  readonly test: TestApi;
  readonly workspace: string;
}

const disposers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const d of disposers.splice(0).reverse()) await d();
});

async function world(): Promise<World> {
  const store = tempFileStore();
  const workspace = tempDir("stratum-annotations-ws-");
  const test = makeTestApi({ cwd: workspace.path, store: store.store });
  const server = createMcpServer({ api: test.api, version: "0.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "annotations", version: "0.0.0" });
  await client.connect(clientSide);
  // The SDK client then validates every answer against its tool's outputSchema.
  await client.listTools();
  disposers.push(
    () => store.dispose(),
    () => workspace.dispose(),
    () => client.close(),
  );
  return {
    test,
    workspace: workspace.path,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      return result.structuredContent as Plain;
    },
    bytes: () => {
      const both = new Map<string, string>();
      for (const [k, v] of snapshot(store.home)) both.set(`store${k}`, v);
      for (const [k, v] of snapshot(workspace.path)) both.set(`workspace${k}`, v);
      return both;
    },
    state: async () => {
      const out = new Map<string, string>();
      for (const { flowId } of await store.store.list()) {
        const stored = await store.store.read(flowId);
        if (stored === null) continue;
        const decoded = decodeStoredFlow(stored);
        if (!decoded.ok) throw new Error(`flow ${flowId}: ${decoded.reason}`);
        out.set(flowId, encodeFlowState({ ...decoded.state, revision: 0 }));
      }
      for (const [k, v] of snapshot(workspace.path)) out.set(`workspace${k}`, v);
      return out;
    },
  };
}

/** A flow of SPEC, planned (at step a). */
async function planned(w: World): Promise<string> {
  const plan = await w.call("stratum_plan", { spec: SPEC, flow: "main" });
  expect(plan.status).toBe("execute_step");
  return plan.flow_id as string;
}

/** A flow of SPEC at its gate (a done, the loop run and finished). */
async function atGate(w: World): Promise<string> {
  const flow_id = await planned(w);
  expect((await w.call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } })).step_id).toBe(
    "hunt",
  );
  expect((await w.call("stratum_iteration_start", { flow_id, step_id: "hunt" })).status).toBe(
    "iteration_started",
  );
  await w.call("stratum_iteration_abort", { flow_id, step_id: "hunt", reason: "enough" });
  const gate = await w.call("stratum_step_done", { flow_id, step_id: "hunt", result: {} });
  expect(gate.status).toBe("await_gate");
  return flow_id;
}

async function trace(w: World, flow_id: string): Promise<unknown[]> {
  return (await w.call("stratum_audit", { flow_id })).trace as unknown[];
}

const hints = (name: string) => {
  const tool = TOOLS.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.annotations;
};

describe("read-only tools leave the store and the workspace byte-identical", () => {
  const cases: [string, (w: World) => Promise<Plain>][] = [
    ["stratum_validate", async () => ({ spec: SPEC })],
    ["stratum_audit", async (w) => ({ flow_id: await atGate(w) })],
    ["stratum_list_workflows", async () => ({ workflows_dir: "." })],
    [
      "stratum_compile_speckit",
      async (w) => {
        mkdirSync(join(w.workspace, "tasks"));
        writeFileSync(join(w.workspace, "tasks", "01-one.md"), readFileSync(join(SPECKIT, "01-research.md")));
        return { tasks_dir: "tasks" };
      },
    ],
    ["stratum_fuzz", async () => ({ spec: SPEC, runs: 3, time_budget_ms: 20_000 })],
  ];
  it("covers every tool declared read-only", () => {
    expect(cases.map(([name]) => name).sort()).toEqual(
      TOOLS.filter((t) => t.annotations.readOnlyHint)
        .map((t) => t.name)
        .sort(),
    );
  });
  it.each(cases)("%s", async (name, args) => {
    const w = await world();
    const given = await args(w);
    const before = w.bytes();
    const answer = await w.call(name, given);
    expect(answer.status, JSON.stringify(answer).slice(0, 300)).not.toBe("error");
    expect(w.bytes()).toEqual(before);
    expect(hints(name)).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  });
});

describe("idempotent tools change nothing more when called again", () => {
  const cases: [string, (w: World) => Promise<Plain>, boolean][] = [
    ["stratum_commit", async (w) => ({ flow_id: await atGate(w), label: "here" }), true],
    [
      "stratum_revert",
      async (w) => {
        const flow_id = await planned(w);
        await w.call("stratum_commit", { flow_id, label: "start" });
        await w.call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } });
        return { flow_id, label: "start" };
      },
      true,
    ],
    [
      "stratum_check_timeouts",
      async (w) => {
        const flow_id = await atGate(w);
        w.test.clock.advanceWall(61_000);
        return { flow_id };
      },
      true,
    ],
    [
      "stratum_iteration_start",
      async (w) => {
        const flow_id = await planned(w);
        await w.call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } });
        return { flow_id, step_id: "hunt" };
      },
      true,
    ],
    [
      "stratum_iteration_abort",
      async (w) => {
        const flow_id = await planned(w);
        await w.call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } });
        await w.call("stratum_iteration_start", { flow_id, step_id: "hunt" });
        return { flow_id, step_id: "hunt", reason: "enough" };
      },
      true,
    ],
    ["stratum_draft_pipeline", async () => ({ draft: { name: "p", phases: [] }, project_dir: "." }), true],
    // Resume dispatches the current step again (it may run the policy loop): not read-only.
    ["stratum_resume", async (w) => ({ flow_id: await atGate(w) }), false],
  ];
  it.each(cases)("%s", async (name, args, changes) => {
    const w = await world();
    const given = await args(w);
    const before = await w.state();
    const first = await w.call(name, given);
    expect(first.status, JSON.stringify(first).slice(0, 300)).not.toBe("error");
    const once = await w.state();
    if (changes) expect(once, "the first call changes something").not.toEqual(before);
    await w.call(name, given);
    expect(await w.state()).toEqual(once);
    expect(hints(name)).toMatchObject({ readOnlyHint: false, idempotentHint: true });
  });
});

describe("tools declared not idempotent change the store again on a repeat", () => {
  const cases: [string, (w: World) => Promise<Plain>][] = [
    ["stratum_plan", async () => ({ spec: SPEC, flow: "main" })],
    // A result the ensure rejects: each report spends one more retry.
    ["stratum_step_done", async (w) => ({ flow_id: await planned(w), step_id: "a", result: { v: 0 } })],
    [
      "stratum_iteration_report",
      async (w) => {
        const flow_id = await planned(w);
        await w.call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } });
        await w.call("stratum_iteration_start", { flow_id, step_id: "hunt" });
        return { flow_id, step_id: "hunt", result: { found: 1 } };
      },
    ],
  ];
  it.each(cases)("%s", async (name, args) => {
    const w = await world();
    const given = await args(w);
    await w.call(name, given);
    const once = await w.state();
    await w.call(name, given);
    expect(await w.state()).not.toEqual(once);
    expect(hints(name).idempotentHint).toBe(false);
  });
});

describe("non-destructive tools only extend the flow's trace", () => {
  const cases: [string, (w: World) => Promise<[string, Plain]>][] = [
    ["stratum_step_done", async (w) => [await planned(w), { step_id: "a", result: { v: 1 } }]],
    ["stratum_skip_step", async (w) => [await planned(w), { step_id: "a", reason: "not needed" }]],
  ];
  it.each(cases)("%s", async (name, args) => {
    const w = await world();
    const [flow_id, rest] = await args(w);
    const before = await trace(w, flow_id);
    const answer = await w.call(name, { flow_id, ...rest });
    expect(answer.status).not.toBe("error");
    const after = await trace(w, flow_id);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(hints(name).destructiveHint).toBe(false);
  });
});

describe("destructive tools end, rewind or replace", () => {
  it("stratum_gate_resolve kills the flow, or sends it back a round", async () => {
    const w = await world();
    const killed = await atGate(w);
    const kill = { flow_id: killed, step_id: "approve", rationale: "no", resolved_by: "human" };
    expect((await w.call("stratum_gate_resolve", { ...kill, outcome: "kill" })).status).toBe("killed");
    expect((await w.call("stratum_audit", { flow_id: killed })).status).toBe("killed");
    const revised = await atGate(w);
    const revise = { flow_id: revised, step_id: "approve", rationale: "again", resolved_by: "human" };
    expect((await w.call("stratum_gate_resolve", { ...revise, outcome: "revise" })).step_id).toBe("a");
    // The round's records leave the current trace (they are archived).
    expect(await trace(w, revised)).toEqual([]);
    expect(hints("stratum_gate_resolve").destructiveHint).toBe(true);
  });

  it("stratum_check_timeouts kills a flow whose gate has expired", async () => {
    const w = await world();
    const flow_id = await atGate(w);
    w.test.clock.advanceWall(61_000);
    expect((await w.call("stratum_check_timeouts", { flow_id })).status).toBe("killed");
    expect(hints("stratum_check_timeouts").destructiveHint).toBe(true);
  });

  it("stratum_revert drops the steps done after the checkpoint; stratum_commit replaces a checkpoint", async () => {
    const w = await world();
    const flow_id = await planned(w);
    await w.call("stratum_commit", { flow_id, label: "mark" });
    await w.call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } });
    expect(await trace(w, flow_id)).toHaveLength(1);
    expect((await w.call("stratum_revert", { flow_id, label: "mark" })).step_id).toBe("a");
    expect(await trace(w, flow_id)).toEqual([]);
    await w.call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } });
    await w.call("stratum_commit", { flow_id, label: "mark" });
    // The checkpoint now holds the later state: reverting to it keeps step a done.
    expect((await w.call("stratum_revert", { flow_id, label: "mark" })).step_id).toBe("hunt");
    expect(hints("stratum_revert").destructiveHint).toBe(true);
    expect(hints("stratum_commit").destructiveHint).toBe(true);
  });

  it("stratum_draft_pipeline replaces the draft file", async () => {
    const w = await world();
    const file = join(w.workspace, ".stratum", "pipeline-draft.json");
    mkdirSync(join(w.workspace, ".stratum"));
    writeFileSync(file, "earlier draft");
    await w.call("stratum_draft_pipeline", { draft: { name: "p", phases: [] } });
    expect(readFileSync(file, "utf8")).not.toContain("earlier draft");
    expect(hints("stratum_draft_pipeline").destructiveHint).toBe(true);
  });
});

describe("open world", () => {
  it("is declared exactly by the tools that start agents", () => {
    expect(
      TOOLS.filter((t) => t.annotations.openWorldHint)
        .map((t) => t.name)
        .sort(),
    ).toEqual(["stratum_agent_run", "stratum_judge", "stratum_parallel_start"]);
  });
});
