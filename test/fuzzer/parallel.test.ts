// Version 0.3 steps under the fuzzer: the agent plays the consumer of parallel_dispatch (task
// results, certificates, roster, merge status through stratum_parallel_done), varies decompose
// task lists (sizes, cycles, dangling and repeated ids, shared files), recovers from a list the
// dispatch refuses, and its witnesses replay in process and through the built stratum-mcp.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { exploreExhaustive } from "../../fuzzer/explore/exhaustive";
import {
  fuzzSpec,
  fuzzTransport,
  type Plain,
  replayCounterexample,
  type Transport,
  virtualFiles,
} from "../../fuzzer/index";
import type { Decider, Option } from "../../fuzzer/run/decider";
import { driveRun, type RunSetup } from "../../fuzzer/run/driver";
import { shapeTaskLists, type TaskListShape } from "../../fuzzer/run/kinds/decompose/task-lists";
import { Session } from "../../fuzzer/run/session";
import { isRefusedTaskList } from "../../fuzzer/run/task-list-refusal";
import { Solver } from "../../fuzzer/solver";
import { fuzzTarget } from "../../fuzzer/target";
import { Shapes } from "../../fuzzer/values/shapes";
import type { FlowEvent } from "../../interpreter/index";
import { type RunningServer, startServer, tempDir } from "../mcp/support/server";

const PIPELINE = (parallel: string, planEnsure = "") => `version: "0.3"
contracts:
  Task:
    id: {type: string}
    description: {type: string}
  Plan:
    tasks: {type: array, items: {type: Task}}
flows:
  main:
    input: {}
    steps:
      - id: plan
        type: decompose
        agent: claude
        intent: "Break the goal into tasks"
        output_contract: Plan
${planEnsure}      - id: run
        type: parallel_dispatch
        source: "$.steps.plan.output.tasks"
        intent_template: "Implement {task.description}"
${parallel}`;

/** `require: all`, an ensure on the outcome and a single attempt: one failed task exhausts the step. */
const EXHAUSTS = PIPELINE(`        require: all
        ensure: ["result.outcome == 'complete'"]
        retries: 1
`);

const CERTIFIED = PIPELINE(`        require: any
        task_reasoning_template:
          sections:
            - {id: p, label: "Premises", description: "What you read"}
            - {id: c, label: "Conclusion", description: "What follows"}
`);

const NO_CONFLICTS = PIPELINE(
  "        require: 2\n",
  '        ensure: ["no_file_conflicts(result.tasks)"]\n',
);

function setupOf(text: string, maxCalls = 60): RunSetup {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error("the spec does not check clean");
  const shapes = new Shapes(target.spec, target.literals);
  const solver = new Solver(target.spec, shapes, 42, virtualFiles(target.literals.strings));
  return { target, shapes, solver, transport: fuzzTransport(text), flow: "main", maxCalls };
}

/** A decider that takes the scripted option names in order when offered, else the first option. */
class ScriptedDecider implements Decider {
  readonly endsAtRevisit = false;
  constructor(private readonly script: string[]) {}
  choose<T extends string>(options: readonly Option<T>[]): T {
    const wanted = options.find((o) => o.name === this.script[0]);
    if (wanted !== undefined) {
      this.script.shift();
      return wanted.name;
    }
    return options[0]!.name;
  }
  inputs(): Record<string, unknown> {
    return {};
  }
  value(): unknown {
    return undefined;
  }
}

function mcpTransport(client: Client): Transport {
  return async (tool, args) => {
    // Asks for the call's typed events, as `stratumc replay --server` does (docs/guides/fuzzing.md).
    const result = await client.callTool({ name: tool, arguments: args, _meta: { "stratumc/events": true } });
    const content = result.content as { type: string; text: string }[];
    const events = result._meta?.["stratumc/events"];
    return {
      response: JSON.parse(content[0]?.text ?? "{}") as Plain,
      events: Array.isArray(events) ? (events as FlowEvent[]) : null,
    };
  };
}

describe("the fuzzer's agent on parallel_dispatch steps", () => {
  const home = tempDir("stratum-fuzz-parallel-");
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
  }, 60_000);
  afterAll(async () => {
    await server?.closeInput();
    home.dispose();
  });

  it("finds, exhaustively, the run where require: all exhausts the step, and its witness replays everywhere", async () => {
    const explored = await exploreExhaustive(setupOf(EXHAUSTS), [{}], {
      maxPaths: 100,
      deadline: null,
      now: () => 0,
    });
    expect(explored.complete).toBe(true);
    const witness = explored.ends.get("exhausted");
    expect(witness).toBeDefined();
    const calls = witness!.calls;
    expect(calls[0]!.tool).toBe("stratum_plan");
    expect(calls[calls.length - 1]!.tool).toBe("stratum_parallel_done");
    const done = calls[calls.length - 1]!.arguments;
    expect(
      (done.task_results as Plain[]).some((t) => t.status === "failed") || done.merge_status === "conflict",
    ).toBe(true);
    for (const transport of [fuzzTransport(EXHAUSTS), mcpTransport(server.client)]) {
      const replay = await replayCounterexample(EXHAUSTS, calls, transport, null);
      const last = replay.steps[replay.steps.length - 1]!.response;
      expect(last).toMatchObject({ status: "error", error_type: "retries_exhausted", step_id: "run" });
    }
    // Exhaustion is an outcome the spec declares: no finding, and every property proven.
    const { report } = await fuzzSpec(EXHAUSTS);
    expect(report?.findings).toEqual([]);
    expect(report?.exhaustive).toBe(true);
    expect(report?.soundness.main).toEqual({
      option_to_complete: "proven",
      proper_completion: "proven",
      no_dead_steps: "proven",
      notes: [],
    });
  }, 60_000);

  it("reports a broken task certificate, which fails the task (and require: any with it)", async () => {
    const run = await driveRun(
      setupOf(CERTIFIED),
      new ScriptedDecider(["pass", "one", "all-complete", "broken"]),
    );
    const session = new Session(fuzzTransport(CERTIFIED));
    let last: Plain = {};
    for (const call of run.calls) last = await session.replay(call);
    const done = run.calls.find((c) => c.tool === "stratum_parallel_done")!;
    expect((done.arguments.task_results as Plain[]).map((t) => t.status)).toEqual(["complete"]);
    const firstReport = session.exchanges.find((e) => e.call.tool === "stratum_parallel_done")!.response;
    expect(firstReport.status).toBe("ensure_failed");
    expect(firstReport.violations).toEqual([
      "require='any' not satisfied: 0 completed, 1 failed",
      "task 't1' cert: certificate missing section: Conclusion",
    ]);
    expect(last.status).toBe("complete"); // the retry carries a valid certificate
  });

  it("drops and repeats tasks, and reports a conflict", async () => {
    const dropped = await driveRun(
      setupOf(EXHAUSTS),
      new ScriptedDecider(["pass", "several", "drop", "conflict"]),
    );
    const done = dropped.calls.find((c) => c.tool === "stratum_parallel_done")!.arguments;
    expect((done.task_results as Plain[]).map((t) => t.task_id)).toEqual(["t1", "t2"]);
    expect(done.merge_status).toBe("conflict");
    expect(dropped.end).toBe("exhausted");
    const repeated = await driveRun(setupOf(EXHAUSTS), new ScriptedDecider(["pass", "several", "duplicate"]));
    const again = repeated.calls.find((c) => c.tool === "stratum_parallel_done")!.arguments;
    expect((again.task_results as Plain[]).map((t) => t.task_id)).toEqual(["t1", "t2", "t3", "t1"]);
    expect(repeated.end).toBe("complete");
  });

  it.each(["empty", "one", "several"] as const)("completes with a %s task list", async (shape) => {
    const run = await driveRun(setupOf(EXHAUSTS), new ScriptedDecider(["pass", shape]));
    const done = run.calls.find((c) => c.tool === "stratum_parallel_done")!.arguments;
    expect((done.task_results as Plain[]).length).toBe({ empty: 0, one: 1, several: 3 }[shape]);
    expect(run.end).toBe("complete");
  });

  it.each(["cycle", "dangling", "duplicate-id"] as const)(
    "recovers from a %s task list the dispatch refuses (nothing committed) with a well-formed one",
    async (shape) => {
      const run = await driveRun(setupOf(EXHAUSTS), new ScriptedDecider(["pass", shape]));
      expect(run.calls.map((c) => c.tool)).toEqual([
        "stratum_plan",
        "stratum_step_done",
        "stratum_step_done",
        "stratum_parallel_done",
      ]);
      expect(run.end).toBe("complete");
      expect(run.observations).toEqual([]);
      const session = new Session(fuzzTransport(EXHAUSTS));
      const responses: Plain[] = [];
      for (const call of run.calls.slice(0, 3)) responses.push(await session.replay(call));
      const flow = fuzzTarget(checkSpec(EXHAUSTS))!.spec.flows.get("main");
      expect(isRefusedTaskList(flow, run.calls[1]!, responses[1]!)).toBe(true);
      expect(responses[2]).toMatchObject({ status: "parallel_dispatch", step_id: "run" });
    },
  );

  it("lets no_file_conflicts reject shared files without reporting that it raised", async () => {
    const run = await driveRun(setupOf(NO_CONFLICTS), new ScriptedDecider(["pass", "shared-files"]));
    const session = new Session(fuzzTransport(NO_CONFLICTS));
    const responses: Plain[] = [];
    for (const call of run.calls) responses.push(await session.replay(call));
    expect(responses[1]).toMatchObject({ status: "ensure_failed", step_id: "plan" });
    expect(String((responses[1]!.violations as string[])[0])).toContain("File ownership conflict");
    expect(run.observations).toEqual([]);
    const { report } = await fuzzSpec(NO_CONFLICTS);
    expect(report?.findings).toEqual([]);
  });
});

describe("task lists", () => {
  const tasks = (shape: TaskListShape) =>
    (shapeTaskLists({ tasks: [{ id: "", description: "d" }] }, [["tasks"]], shape) as { tasks: Plain[] })
      .tasks;

  it("builds lists of 0, 1 and 3 tasks with a chain of dependencies and disjoint files", () => {
    expect(tasks("empty")).toEqual([]);
    expect(tasks("one")).toEqual([
      { id: "t1", description: "d", depends_on: [], files_owned: ["src/t1.ts"] },
    ]);
    expect(tasks("several").map((t) => [t.id, t.depends_on])).toEqual([
      ["t1", []],
      ["t2", ["t1"]],
      ["t3", ["t2"]],
    ]);
  });

  it("reports task objects where the contract's list has no item type (a decompose agent writes tasks)", () => {
    const generated = { tasks: [3, "x", null] };
    const asGenerated = shapeTaskLists(generated, [["tasks"]], "as-generated") as { tasks: Plain[] };
    expect(asGenerated.tasks.map((t) => [t.id, t.depends_on, t.files_owned])).toEqual([
      ["t1", [], ["src/t1.ts"]],
      ["t2", ["t1"], ["src/t2.ts"]],
      ["t3", ["t2"], ["src/t3.ts"]],
    ]);
    const objects = { tasks: [{ id: "a", description: "d" }] };
    expect(shapeTaskLists(objects, [["tasks"]], "as-generated")).toBe(objects);
  });

  it("plants a cycle, a dangling dependency, a repeated id and a shared file", () => {
    expect(tasks("cycle")[0]!.depends_on).toEqual(["t3"]);
    expect(tasks("dangling")[2]!.depends_on).toEqual(["no-such-task"]);
    expect(tasks("duplicate-id")[2]!.id).toBe("t1");
    expect(tasks("shared-files")[2]!.files_owned).toEqual(["src/t3.ts", "src/t1.ts"]);
    expect(tasks("shared-files").map((t) => t.depends_on)).toEqual([[], [], []]);
  });

  it("tells the dispatch refusing the agent's task list from other errors, by the interpreter's own graph check", () => {
    const flow = fuzzTarget(checkSpec(EXHAUSTS))!.spec.flows.get("main");
    const error = { status: "error", message: "any wording", source: "$.steps.plan.output.tasks" };
    const report = (tasks: unknown[]) => ({
      tool: "stratum_step_done" as const,
      arguments: { flow_id: "<flow-1>", step_id: "plan", result: { tasks } },
    });
    expect(isRefusedTaskList(flow, report(tasks("cycle")), error)).toBe(true);
    expect(isRefusedTaskList(flow, report(tasks("duplicate-id")), error)).toBe(true);
    expect(isRefusedTaskList(flow, report(tasks("dangling")), error)).toBe(true);
    // A well-formed list: the same error is not the agent's list (an unresolvable source, say).
    expect(isRefusedTaskList(flow, report(tasks("several")), error)).toBe(false);
    expect(isRefusedTaskList(flow, report(tasks("cycle")), { status: "execute_step" })).toBe(false);
  });
});
