// The fuzzer's step-kind descriptors (fuzzer/run/kinds/): one per kind of the table, each playing
// what the table says of its kind, and the plays themselves against a scripted run: which calls a
// kind's agent makes, in what batches, and what it notes as the step's output.
import { describe, expect, it } from "vitest";
import type { FlowIR, StepIR } from "../../../../checker/index";
import { checkSpec, STEP_KIND_TABLE, STEP_KINDS } from "../../../../checker/index";
import { virtualFiles } from "../../../../fuzzer/engine";
import type { Decider, Option } from "../../../../fuzzer/run/decider";
import { FUZZ_KINDS, fansOut } from "../../../../fuzzer/run/kinds/index";
import type { KindRun, ResultAim } from "../../../../fuzzer/run/kinds/kind";
import type { Plain, ToolName } from "../../../../fuzzer/run/session";
import { Solver } from "../../../../fuzzer/solver";
import { fuzzTarget } from "../../../../fuzzer/target";
import { Shapes } from "../../../../fuzzer/values/shapes";
import type { Violation } from "../../../../interpreter/index";
import { dictGetStr, fromJsonValue, type PyDict, type PyValue } from "../../../../stdlib/index";

/** Takes the scripted option names in order when offered, else the first option; notes every offer. */
class ScriptedDecider implements Decider {
  readonly endsAtRevisit = false;
  readonly offered: string[][] = [];
  constructor(private readonly script: string[]) {}
  choose<T extends string>(options: readonly Option<T>[]): T {
    this.offered.push(options.filter((o) => o.weight > 0 || o.exhaustive).map((o) => o.name));
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

interface Played {
  readonly run: KindRun;
  readonly decider: ScriptedDecider;
  readonly calls: { tool: ToolName; args: Plain }[];
  readonly outputs: Map<string, PyValue>;
  readonly judged: string[];
}

/** A run over `text` whose answers come, in order, from `answers` (then `{status: "complete"}`). */
function scripted(text: string, script: string[], answers: Plain[]): Played & { flow: FlowIR } {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error("the spec does not check clean");
  const shapes = new Shapes(target.spec, target.literals);
  const solver = new Solver(target.spec, shapes, 42, virtualFiles(target.literals.strings));
  const decider = new ScriptedDecider(script);
  const calls: { tool: ToolName; args: Plain }[] = [];
  const outputs = new Map<string, PyValue>();
  const judged: string[] = [];
  let drawn = 0;
  const call = async (tool: ToolName, args: Plain): Promise<Plain> => {
    calls.push({ tool, args });
    return answers.shift() ?? { status: "complete" };
  };
  const run: KindRun = {
    spec: target.spec,
    solver,
    literals: target.literals.strings,
    decider,
    stopped: () => null,
    call,
    // Each result is numbered, so which member's result became the output shows.
    result: (aim: ResultAim, _flow, step) => ({ aim, step: step.id, n: drawn++ }),
    stepDone: async (flowId, stepId, result) =>
      call("stratum_step_done", { flow_id: flowId, step_id: stepId, result }),
    refused: (_flowId, _stepId, _result, response) => response.status === "error",
    judged: (_flowId, stepId, aim, response) => judged.push(`${stepId}:${aim}:${String(response.status)}`),
    setOutput: (_flowId, stepId, value) => outputs.set(stepId, value),
  };
  return { run, decider, calls, outputs, judged, flow: target.spec.flows.get("main")! };
}

const MEMBERS = (type: "quorum" | "race") => `version: "0.3"
contracts:
  Patch:
    passed: {type: integer}
flows:
  main:
    input: {}
    steps:
      - id: fix
        type: ${type}
        intent: "Make the failing tests pass"
        ${type === "race" ? "candidates: 3" : 'runs: 3\n        agree_on: "result.passed"'}
        output_contract: Patch
`;

const DEBATE = `version: "0.3"
contracts:
  Argument:
    position: {type: string}
  Decision:
    choice: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: design
        type: debate
        debaters:
          - {id: pro, agent: claude, intent: "Argue for"}
          - {id: con, agent: codex, intent: "Argue against"}
        rounds: 2
        argument_contract: Argument
        synthesis: {intent: "Decide", output_contract: Decision}
`;

const PIPELINE = `version: "0.3"
contracts:
  Task:
    id: {type: string}
  Plan:
    tasks: {type: array, items: {type: Task}}
flows:
  main:
    input: {}
    steps:
      - id: plan
        type: decompose
        agent: claude
        intent: "Plan"
        output_contract: Plan
      - id: run
        type: parallel_dispatch
        source: "$.steps.plan.output.tasks"
        intent_template: "Do {task.id}"
`;

const TASKS = [{ id: "a" }, { id: "b" }, { id: "c" }];
const stepOf = (flow: FlowIR, id: string): StepIR => flow.stepById.get(id)!;

describe("the fuzzer's kind descriptors", () => {
  it("agree with the table: a kind fans out exactly when it runs in parallel, members only where it has them", () => {
    for (const k of STEP_KINDS) {
      const kind = FUZZ_KINDS[k];
      const facts = STEP_KIND_TABLE[k];
      expect(kind.fanOut !== null, k).toBe(facts.parallel);
      expect(fansOut(k), k).toBe(facts.parallel);
      if (kind.membersOf !== null || kind.reportsRounds) expect(facts.members, k).toBe(true);
      if (kind.aggregate !== null) expect(facts.parallel && !facts.members, k).toBe(true);
      // A kind that fans out reports with stratum_parallel_done, never a result of its own.
      if (kind.fanOut !== null) expect(kind.report, k).toBeNull();
    }
  });

  it("a race's agent may report the last candidates first, and goes on while the race is pending", async () => {
    const p = scripted(
      MEMBERS("race"),
      ["two-batches"],
      [{ status: "race_pending" }, { status: "complete" }],
    );
    const payload = { flow_id: "f1", step_id: "fix", tasks: TASKS };
    await FUZZ_KINDS.race.fanOut!(p.run, payload, p.flow, stepOf(p.flow, "fix"));
    const batches = p.calls.map((c) => (c.args.task_results as Plain[]).map((r) => r.task_id));
    expect(batches).toEqual([["c"], ["a", "b"]]);
    expect(p.judged).toEqual(["fix:pass:complete"]);
    // No winner named: the first member's result is what later steps read.
    expect(p.outputs.get("fix")).toEqual(fromJsonValue({ aim: "pass", step: "fix", n: 0 }));
  });

  it("a quorum's agent reports its runs in one batch: it is never offered two", async () => {
    const p = scripted(MEMBERS("quorum"), ["two-batches"], [{ status: "complete" }]);
    const payload = { flow_id: "f1", step_id: "fix", tasks: TASKS };
    await FUZZ_KINDS.quorum.fanOut!(p.run, payload, p.flow, stepOf(p.flow, "fix"));
    expect(p.calls.map((c) => (c.args.task_results as Plain[]).length)).toEqual([3]);
    expect(p.decider.offered.flat()).not.toContain("two-batches");
  });

  it("a race notes its winner's result as the step's output", async () => {
    const p = scripted(
      MEMBERS("race"),
      ["last-fails", "complete"],
      [{ status: "complete", race: { winner: "b" } }],
    );
    const payload = { flow_id: "f1", step_id: "fix", tasks: TASKS };
    await FUZZ_KINDS.race.fanOut!(p.run, payload, p.flow, stepOf(p.flow, "fix"));
    const results = (p.calls[0]!.args.task_results as Plain[]).map((r) => r.result);
    expect(results.map((r) => (r as Plain).aim)).toEqual(["pass", "pass", "fail"]);
    expect(p.outputs.get("fix")).toEqual(fromJsonValue({ aim: "pass", step: "fix", n: 1 }));
  });

  it("a debate's round: every debater argues with a value of the argument contract, or the last one fails", async () => {
    for (const [script, statuses] of [
      [[], ["complete", "complete"]],
      [["one-fails"], ["complete", "failed"]],
    ] as const) {
      const p = scripted(DEBATE, [...script], []);
      const payload = { flow_id: "f1", step_id: "design", round: 1, tasks: [{ id: "pro" }, { id: "con" }] };
      await FUZZ_KINDS.debate.fanOut!(p.run, payload, p.flow, stepOf(p.flow, "design"));
      const reported = p.calls[0]!.args.task_results as Plain[];
      expect(reported.map((r) => r.status)).toEqual(statuses);
      expect(typeof (reported[0]!.result as Plain).position).toBe("string");
      // A round is not judged as the step's answer: nothing is noted for coverage or output.
      expect(p.judged).toEqual([]);
      expect(p.outputs.size).toBe(0);
    }
    expect(FUZZ_KINDS.debate.reportsRounds).toBe(true);
  });

  it("a parallel step's agent reports every task once, and notes the aggregate as the output", async () => {
    const p = scripted(PIPELINE, [], [{ status: "complete" }]);
    const payload = { flow_id: "f1", step_id: "run", tasks: TASKS };
    await FUZZ_KINDS.parallel_dispatch.fanOut!(p.run, payload, p.flow, stepOf(p.flow, "run"));
    expect(p.calls.map((c) => c.tool)).toEqual(["stratum_parallel_done"]);
    expect((p.calls[0]!.args.task_results as Plain[]).map((r) => r.task_id)).toEqual(["a", "b", "c"]);
    expect(p.judged).toEqual(["run:pass:complete"]);
    expect(dictGetStr(p.outputs.get("run") as PyDict, "outcome")).toBe("complete");
  });

  it("a parallel step's require, merge and certificate verdicts are its own; an ensure's is not", () => {
    const own = FUZZ_KINDS.parallel_dispatch.aggregate!.ownVerdict;
    expect(own({ kind: "require" } as Violation)).toBe(true);
    expect(own({ kind: "merge_conflict" } as Violation)).toBe(true);
    expect(own({ kind: "ensure", index: 0 } as unknown as Violation)).toBe(false);
  });

  it("a decompose step's task list the dispatch refuses is reported again, well formed", async () => {
    const p = scripted(PIPELINE, ["cycle"], [{ status: "error", source: "$.steps.plan.output.tasks" }]);
    const step = stepOf(p.flow, "plan");
    await FUZZ_KINDS.decompose.report!(p.run, p.flow, step, "f1", { tasks: TASKS }, "pass");
    const lists = p.calls.map((c) => (c.args.result as Plain).tasks as Plain[]);
    expect(lists).toHaveLength(2);
    // The cycle: the first task depends on the last.
    expect(lists[0]![0]!.depends_on).toEqual([lists[0]![2]!.id]);
    expect(lists[1]!.map((t) => t.depends_on)).toEqual([[], ["t1"], ["t2"]]);
  });

  it("a decompose step whose output no parallel step reads is reported as it is", async () => {
    const text = PIPELINE.replace('source: "$.steps.plan.output.tasks"', 'source: "$.input.tasks"').replace(
      "input: {}",
      "input: {tasks: {type: array}}",
    );
    const p = scripted(text, ["cycle"], []);
    await FUZZ_KINDS.decompose.report!(p.run, p.flow, stepOf(p.flow, "plan"), "f1", { tasks: TASKS }, "pass");
    expect(p.calls.map((c) => c.args.result)).toEqual([{ tasks: TASKS }]);
    expect(p.decider.offered).toEqual([]);
  });
});
