// The checked IR of version 0.3 steps (checker/ir/types.ts): kinds, parallel keys with the
// reference's defaults, written numbers, attempt limits and result types; ensure expressions typed
// against them; editor completion and hover of the new keys from the schema.
import { describe, expect, it } from "vitest";
import { completionsAt, hoverAt } from "../../../../checker/services/assist";
import { typeToString } from "../../../../stdlib/types/print";
import { withCursor } from "../../services/markers";
import { check, parallel, spec03 } from "./support";

function stepOf(text: string, id: string) {
  const result = check(text);
  expect(result.errors).toEqual([]);
  const step = result.ir?.flows.get("f")?.stepById.get(id);
  if (step === undefined) throw new Error(`no step ${id}`);
  return step;
}

describe("StepIR of the new kinds", () => {
  it("type decides the kind; decompose behaves as an inline step with two attempts", () => {
    const plan = stepOf(parallel(), "plan");
    expect([plan.kind, plan.retries, plan.intent, plan.outputContract, plan.parallel]).toEqual([
      "decompose",
      2,
      "Plan",
      "TaskGraph",
      null,
    ]);
    expect(typeToString(plan.resultType)).toBe("TaskGraph");
  });

  it("a parallel_dispatch step gets every default", () => {
    const run = stepOf(parallel(), "run");
    expect(run.kind).toBe("parallel_dispatch");
    expect(run.retries).toBe(2);
    expect(run.parallel).toEqual({
      source: "$.steps.plan.output.tasks",
      sourceRef: expect.objectContaining({ scope: "steps" }),
      intentTemplate: "Do {task.description}",
      maxConcurrent: { value: 3, float: false },
      isolation: "worktree",
      require: "all",
      merge: "sequential_apply",
      taskTimeout: 1800,
      captureDiff: false,
      deferAdvance: false,
      taskReasoningTemplate: null,
      validate: null,
      memberContract: null,
    });
    expect(run.parallel?.sourceRef?.name.name).toBe("plan");
    expect(run.parallel?.sourceRef?.fields.map((f) => f.name)).toEqual(["tasks"]);
  });

  it("written values are kept, 2.0 as a float", () => {
    const run = stepOf(
      parallel(
        "max_concurrent: 2.0",
        "require: 2.0",
        "isolation: none",
        "merge: manual",
        "task_timeout: 60",
        "capture_diff: true",
        "defer_advance: true",
        "retries: 4",
      ),
      "run",
    );
    expect(run.retries).toBe(4);
    expect(run.parallel).toMatchObject({
      maxConcurrent: { value: 2, float: true },
      require: { value: 2, float: true },
      isolation: "none",
      merge: "manual",
      taskTimeout: 60,
      captureDiff: true,
      deferAdvance: true,
    });
    expect(stepOf(parallel("require: any", "task_timeout: null"), "run").parallel).toMatchObject({
      require: "any",
      taskTimeout: 1800,
    });
    expect(stepOf(parallel("require: 3"), "run").parallel?.require).toEqual({ value: 3, float: false });
  });

  it("the result of a parallel step is the aggregate record", () => {
    const run = stepOf(parallel(), "run");
    expect(typeToString(run.resultType)).toBe("ParallelDispatchResult");
    const record = run.resultType.k === "record" ? run.resultType.record : null;
    expect([...(record?.fields.entries() ?? [])].map(([n, f]) => `${n}: ${typeToString(f.type)}`)).toEqual([
      "tasks: list[any]",
      "merge_status: str",
      "completed: list[any]",
      "failed: list[any]",
      "outcome: str",
    ]);
  });
});

describe("ensure and $ references on the new kinds", () => {
  it("a parallel step's ensure sees the aggregate; an unknown field is an error", () => {
    expect(
      check(parallel("ensure: [\"result.outcome == 'complete'\", 'len(result.failed) == 0']")).errors,
    ).toEqual([]);
    const bad = check(parallel('ensure: ["result.outcom == 1"]'));
    expect(bad.errors.map((d) => d.code)).toEqual(["EXPR-UNKNOWN-FIELD"]);
  });

  it("a decompose step's ensure sees its output_contract, no_file_conflicts included", () => {
    const text = spec03().replace(
      "output_contract: TaskGraph",
      'output_contract: TaskGraph\n        ensure: ["no_file_conflicts(result.tasks)", "len(result.tasks) > 0"]',
    );
    expect(check(text).errors).toEqual([]);
    expect(check(text.replace("result.tasks) > 0", "result.task) > 0")).errors.map((d) => d.code)).toEqual([
      "EXPR-UNKNOWN-FIELD",
    ]);
  });

  it("$.steps.<parallel>.output reads the aggregate", () => {
    const text = spec03(
      "- id: run",
      "  type: parallel_dispatch",
      "  source: $.input.tasks",
      "  intent_template: x",
      "- id: after",
      "  intent: Summarize",
      "  depends_on: [run]",
      "  inputs: {done: $.steps.run.output.completed, bad: $.steps.run.output.nope}",
    );
    expect(check(text).errors.map((d) => `${d.code} ${d.path}`)).toEqual([
      "SPEC-REF-UNKNOWN-FIELD flows.f.steps.after.inputs.bad",
    ]);
  });
});

describe("editor services read the new keys from the schema", () => {
  it("completion in a 0.3 parallel step offers its keys, not function/intent/flow", () => {
    const { text, offset } = withCursor(
      spec03("- id: run", "  type: parallel_dispatch", '  source: "$.input.tasks"', "  <|>"),
    );
    const labels = completionsAt({ text, check: check(text) }, offset).map((i) => i.label);
    for (const key of ["intent_template", "max_concurrent", "isolation", "require", "merge", "task_timeout"])
      expect(labels).toContain(key);
    for (const key of ["function", "intent", "flow", "reasoning_template", "on_approve"])
      expect(labels).not.toContain(key);
  });

  it("completion offers the enum values of isolation and of type", () => {
    const iso = withCursor(spec03("- id: run", "  type: parallel_dispatch", "  isolation: <|>"));
    expect(completionsAt({ text: iso.text, check: check(iso.text) }, iso.offset).map((i) => i.label)).toEqual(
      ["worktree", "branch", "none"],
    );
    const type = withCursor(spec03("- id: run", "  type: <|>"));
    expect(
      completionsAt({ text: type.text, check: check(type.text) }, type.offset).map((i) => i.label),
    ).toEqual([
      "function",
      "inline",
      "flow",
      "decompose",
      "parallel_dispatch",
      "pipeline",
      "quorum",
      "race",
      "debate",
    ]);
  });

  it("a 0.2 document is not offered the 0.3 keys", () => {
    const { text, offset } = withCursor(
      'version: "0.2"\nflows:\n  f:\n    input: {}\n    steps:\n      - id: a\n        <|>\n',
    );
    const labels = completionsAt({ text, check: check(text) }, offset).map((i) => i.label);
    expect(labels).not.toContain("type");
    expect(labels).not.toContain("source");
  });

  it("hover on a new key shows its schema description", () => {
    const { text, offset } = withCursor(parallel("max_conc<|>urrent: 2"));
    const hover = hoverAt({ text, check: check(text) }, offset);
    expect(hover?.contents).toContain("how many tasks the server runs at once");
    const req = withCursor(parallel("requ<|>ire: any"));
    expect(hoverAt({ text: req.text, check: check(req.text) }, req.offset)?.contents).toContain(
      "all | any | integer ≥ 0",
    );
  });
});
