// `query flows | flow <id> | gates` over flows created through the engine and the file store.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { flowId, result, SPEC, TestHome } from "./harness";

let t: TestHome;
beforeEach(() => {
  t = new TestHome();
});
afterEach(() => t.dispose());

const [ID1, ID2, ID3] = [flowId(1), flowId(2), flowId(3)];

/** Flow 1 waits at its gate, flow 2 is at its first step, flow 3 is complete. */
async function threeFlows(): Promise<void> {
  const api = t.api();
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await api.stepDone({ flow_id: ID1, step_id: "draft", result: result('{"text": "hello"}') });
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await api.stepDone({ flow_id: ID3, step_id: "draft", result: result('{"text": "done"}') });
  await api.gateResolve({
    flow_id: ID3,
    step_id: "review",
    outcome: "approve",
    rationale: "",
    resolved_by: "human",
  });
}

const summary = (id: string, status: string, current: string | null, completed: number) => ({
  _schema_version: "1",
  flow_id: id,
  flow_name: "reviewed",
  status,
  current_step_id: current,
  round: 0,
  step_count: 2,
  completed_steps: completed,
  terminal_status: null,
  synthetic: false,
});

describe("query flows", () => {
  it("prints [] when STRATUM_HOME has no flows", async () => {
    expect(await t.cli(["query", "flows"])).toEqual({ code: 0, stdout: "[]\n", stderr: "" });
  });

  it("lists the flows in progress in file-name order, keys in the documented order", async () => {
    await threeFlows();
    const r = await t.cli(["query", "flows"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const parsed = JSON.parse(r.stdout) as Record<string, unknown>[];
    // Flow 3 is complete: the reference deletes finished flows, so its `query flows` never shows
    // them; we keep them (DIV-KEEP-FINISHED) and list them only with --all.
    expect(parsed).toEqual([summary(ID1, "awaiting_gate", "review", 1), summary(ID2, "running", "draft", 0)]);
    expect(Object.keys(parsed[0] ?? {})).toEqual(Object.keys(summary(ID1, "", null, 0)));
    // Python json.dumps(indent=2) layout.
    expect(r.stdout.startsWith(`[\n  {\n    "_schema_version": "1",\n    "flow_id": "${ID1}",\n`)).toBe(true);
  });

  it("--all adds the finished flows", async () => {
    await threeFlows();
    const r = await t.cli(["query", "flows", "--all"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(JSON.parse(r.stdout)).toEqual([
      summary(ID1, "awaiting_gate", "review", 1),
      summary(ID2, "running", "draft", 0),
      summary(ID3, "complete", null, 2),
    ]);
  });

  it("leaves out files that do not restore; a corrupt one is named on stderr, and listed as corrupt with --all", async () => {
    await threeFlows();
    const { writeFileSync } = await import("node:fs");
    const corrupt = "00000000-0000-4000-8000-000000000000";
    writeFileSync(t.flowFile(corrupt), "{not json");
    const broken = JSON.parse(t.flowText(ID2)) as Record<string, unknown>;
    broken.raw_spec = "version: '0.2'\nflows: [";
    writeFileSync(t.flowFile(ID2), JSON.stringify(broken));
    const warning = new RegExp(`^warning: corrupt flow file ${t.flowFile(corrupt)}: .+\\n$`);
    const plain = await t.cli(["query", "flows"]);
    expect((JSON.parse(plain.stdout) as { flow_id: string }[]).map((f) => f.flow_id)).toEqual([ID1]);
    expect(plain.stderr).toMatch(warning);
    const r = await t.cli(["query", "flows", "--all"]);
    expect(
      (JSON.parse(r.stdout) as { flow_id: string; status: string }[]).map((f) => [f.flow_id, f.status]),
    ).toEqual([
      [corrupt, "corrupt"],
      [ID1, "awaiting_gate"],
      [ID3, "complete"],
    ]);
    expect(r.stderr).toMatch(warning);
  });
});

describe("query gates", () => {
  it("prints the pending gates of unfinished flows, exactly", async () => {
    await threeFlows();
    const r = await t.cli(["query", "gates"]);
    expect(r).toEqual({
      code: 0,
      stderr: "",
      stdout: `[
  {
    "_schema_version": "1",
    "flow_id": "${ID1}",
    "flow_name": "reviewed",
    "step_id": "review",
    "function": "review",
    "on_approve": null,
    "on_revise": "draft",
    "on_kill": null,
    "timeout": 3600
  }
]
`,
    });
  });

  it("shows a routed gate's targets and a gate without timeout", async () => {
    const api = t.api();
    await api.plan({ spec: SPEC, flow: "routed" });
    await api.stepDone({ flow_id: ID1, step_id: "prepare", result: result('{"ok": true}') });
    const gates = JSON.parse((await t.cli(["query", "gates"])).stdout) as unknown;
    expect(gates).toEqual([
      {
        _schema_version: "1",
        flow_id: ID1,
        flow_name: "routed",
        step_id: "review",
        function: "review",
        on_approve: "double_check",
        on_revise: "prepare",
        on_kill: "cleanup",
        timeout: 3600,
      },
    ]);
  });
});

describe("query flow <id>", () => {
  it("prints one flow in detail", async () => {
    await threeFlows();
    const r = await t.cli(["query", "flow", ID1]);
    expect(r.code).toBe(0);
    const detail = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(detail)).toEqual([
      "_schema_version",
      "flow_id",
      "flow_name",
      "status",
      "current_step_id",
      "current_idx",
      "round",
      "rounds_count",
      "step_count",
      "terminal_status",
      "synthetic",
      "step_outputs",
      "records",
      "rounds",
      "ordered_steps",
    ]);
    expect(detail).toEqual({
      _schema_version: "1",
      flow_id: ID1,
      flow_name: "reviewed",
      status: "awaiting_gate",
      current_step_id: "review",
      current_idx: 1,
      round: 0,
      rounds_count: 0,
      step_count: 2,
      terminal_status: null,
      synthetic: false,
      step_outputs: { draft: { text: "hello" } },
      records: [
        {
          step_id: "draft",
          function_name: "write",
          attempts: 1,
          duration_ms: expect.any(Number),
          type: "step",
          round: 0,
          round_start_step_id: null,
          agent: null,
          step_mode: "function",
          child_flow_id: null,
          cache_hit: false,
          cache_key: null,
        },
      ],
      rounds: [],
      ordered_steps: [
        { id: "draft", function: "write", mode: "step" },
        { id: "review", function: "review", mode: "gate" },
      ],
    });
  });

  it("gives inline steps an empty function and keeps revised rounds", async () => {
    const api = t.api();
    await api.plan({ spec: SPEC, flow: "routed" });
    await api.stepDone({ flow_id: ID1, step_id: "prepare", result: result("1") });
    await api.gateResolve({
      flow_id: ID1,
      step_id: "review",
      outcome: "revise",
      rationale: "again",
      resolved_by: "agent",
    });
    const detail = JSON.parse((await t.cli(["query", "flow", ID1])).stdout) as Record<string, unknown>;
    expect(detail.ordered_steps).toEqual([
      { id: "prepare", function: "", mode: "step" },
      { id: "review", function: "review", mode: "gate" },
      { id: "cleanup", function: "", mode: "step" },
      { id: "double_check", function: "second_look", mode: "gate" },
    ]);
    expect(detail).toMatchObject({
      status: "running",
      current_step_id: "prepare",
      round: 1,
      rounds_count: 1,
      records: [],
    });
    expect((detail.rounds as unknown[][])[0]?.map((r) => (r as { type: string }).type)).toEqual([
      "step",
      "gate",
    ]);
  });

  it("keeps the kinds of numbers and escapes non-ASCII text, as Python's json.dumps", async () => {
    const api = t.api();
    await api.plan({ spec: SPEC, flow: "routed" });
    await api.stepDone({ flow_id: ID1, step_id: "prepare", result: result('{"n": 1.0, "i": 2, "s": "é✓"}') });
    const r = await t.cli(["query", "flow", ID1]);
    expect(r.stdout).toContain(
      `  "step_outputs": {\n    "prepare": {\n      "n": 1.0,\n      "i": 2,\n      "s": "\\u00e9\\u2713"\n    }\n  },\n`,
    );
  });

  it("answers NOT_FOUND on standard output with exit 1 for an unknown or unsafe id", async () => {
    // One line: the reference prints this object with json.dumps without indent (only the answers
    // of a successful query are indented); an earlier version indented it.
    const notFound = (id: string) => ({
      code: 1,
      stdout: `{"error": {"code": "NOT_FOUND", "message": "Flow '${id}' not found"}}\n`,
      stderr: "",
    });
    expect(await t.cli(["query", "flow", "no-such-flow"])).toEqual(notFound("no-such-flow"));
    expect(await t.cli(["query", "flow", "../etc/passwd"])).toEqual(notFound("../etc/passwd"));
  });
});

describe("query usage", () => {
  it.each([
    [["query", "flow"]],
    [["query", "flows", "extra"]],
    [["query", "flows", "--al"]],
    [["query", "flow", "x", "--all"]],
    [["query", "gates", "x"]],
    [["query", "flow", "a", "b"]],
    [["query", "nonsense"]],
    [["query"]],
  ])("%j is a usage error on standard error, exit 2", async (args) => {
    const r = await t.cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toBe("");
  });

  it("works the same under stratum-mcp", async () => {
    await threeFlows();
    expect(await t.cli(["query", "gates"], "stratum-mcp")).toEqual(await t.cli(["query", "gates"]));
  });
});
