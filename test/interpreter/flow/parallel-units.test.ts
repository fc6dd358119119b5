// The pure parts of version 0.3 parallel steps: the task dependency graph checked at dispatch,
// intent_template rendering (B9) and the evaluation of task results (require, merge, per-task
// certificates, the aggregate).
import { describe, expect, it } from "vitest";
import type { ParallelDispatchIR, StepIR } from "../../../checker/ir/types";
import { renderIntentTemplate } from "../../../interpreter/flow/intent-template";
import {
  evaluateParallelResults as evaluateWith,
  parallelOutcome,
} from "../../../interpreter/flow/kinds/parallel_dispatch/evaluate";
import { mergeReportOf } from "../../../interpreter/flow/merge-report";
import { taskGraphOf, taskGraphProblem } from "../../../interpreter/flow/parallel-task-graph";
import { ensureFailed, violationTexts } from "../../../interpreter/flow/violations";
import type { PyValue } from "../../../stdlib/values/value";
import { json, text } from "./fixtures";

/** The evaluation with the bare-string merge status. */
function evaluateParallelResults(
  step: StepIR,
  taskResults: readonly PyValue[],
  mergeStatus: string,
  spec?: Parameters<typeof evaluateWith>[3],
): ReturnType<typeof evaluateWith> {
  return evaluateWith(step, taskResults, mergeReportOf(mergeStatus), spec);
}

function problem(tasks: string): string | null {
  return taskGraphProblem(taskGraphOf(json(tasks)));
}

describe("task dependency graph", () => {
  it("accepts independent, chained and diamond-shaped task lists, ignoring tasks without id", () => {
    expect(
      problem(`[{"id": "a"}, {"id": "b", "depends_on": ["a"]}, {"id": "c", "depends_on": "a"}]`),
    ).toBeNull();
    expect(
      problem(
        `[{"id": "a"}, {"id": "b", "depends_on": ["a"]}, {"id": "c", "depends_on": ["a"]}, {"id": "d", "depends_on": ["b", "c"]}]`,
      ),
    ).toBeNull();
    expect(problem(`[{"id": "a", "depends_on": null}, {"desc": "no id"}, "text"]`)).toBeNull();
    expect(problem(`"not a list"`)).toBeNull();
  });

  it("names a direct and a transitive cycle by their path", () => {
    expect(problem(`[{"id": "a", "depends_on": ["b"]}, {"id": "b", "depends_on": ["a"]}]`)).toBe(
      "task dependency cycle: a -> b -> a",
    );
    expect(
      problem(
        `[{"id": "x"}, {"id": "a", "depends_on": ["c"]}, {"id": "b", "depends_on": ["a"]}, {"id": "c", "depends_on": ["b"]}]`,
      ),
    ).toBe("task dependency cycle: a -> c -> b -> a");
    expect(problem(`[{"id": "s", "depends_on": ["s"]}]`)).toBe("task dependency cycle: s -> s");
  });

  it("reports duplicate ids first, then unknown dependencies", () => {
    expect(problem(`[{"id": "a", "depends_on": ["zz"]}, {"id": "a"}]`)).toBe("duplicate task id 'a'");
    expect(problem(`[{"id": "a", "depends_on": ["zz"]}, {"id": "b"}]`)).toBe(
      "task 'a' depends_on unknown task 'zz'",
    );
  });

  it("handles a long chain without recursion", () => {
    const tasks = Array.from({ length: 5000 }, (_, i) => ({
      id: `t${i}`,
      depends_on: i === 0 ? [] : [`t${i - 1}`],
    }));
    expect(problem(JSON.stringify(tasks))).toBeNull();
    tasks[0]!.depends_on = ["t4999"];
    expect(problem(JSON.stringify(tasks))?.startsWith("task dependency cycle: t0 -> t4999 -> t4998")).toBe(
      true,
    );
  });
});

describe("intent_template rendering (B9)", () => {
  const task = json(`{"id": "t1", "desc": "write tests", "files": ["a.py"], "n": 2, "f": 1.0, "none": null}`);

  it("expands {task.<field>} and {<field>} with Python str() of the value", () => {
    expect(renderIntentTemplate("Do {task.id}: {desc} in {task.files} x{n} {f} {none}", task)).toBe(
      "Do t1: write tests in ['a.py'] x2 1.0 None",
    );
  });

  it("leaves unknown and other placeholders as written and keeps the known ones expanded", () => {
    expect(renderIntentTemplate("{id} {missing} {task.missing} {task.a.b} {0} { id } {", task)).toBe(
      "t1 {missing} {task.missing} {task.a.b} {0} { id } {",
    );
  });

  it("doubled braces are literal braces, as in str.format", () => {
    expect(renderIntentTemplate("{{id}} {{{id}}} }}", task)).toBe("{id} {t1} }");
  });

  it("a task that is not an object expands nothing", () => {
    expect(renderIntentTemplate("Do {task.id} {id}", "just text")).toBe("Do {task.id} {id}");
  });
});

function parallelStep(overrides: Partial<ParallelDispatchIR>, agent: string | null = null): StepIR {
  const parallel: ParallelDispatchIR = {
    source: "$.input.tasks",
    sourceRef: null,
    intentTemplate: "Do {id}",
    maxConcurrent: { value: 3, float: false },
    isolation: "worktree",
    require: "all",
    merge: "sequential_apply",
    taskTimeout: 1800,
    captureDiff: false,
    deferAdvance: false,
    taskReasoningTemplate: null,
    ...overrides,
  };
  return { id: "execute", kind: "parallel_dispatch", agent, parallel } as unknown as StepIR;
}

const TEMPLATE = {
  sections: [
    { id: "premises", label: "Premises", description: "p" },
    { id: "conclusion", label: "Conclusion", description: "c" },
  ],
  requireCitations: false,
};

function results(s: string): PyValue[] {
  return json(s) as PyValue[];
}

describe("evaluating task results", () => {
  const ONE_FAILED = `[{"task_id": "t1", "result": {}, "status": "complete"}, {"task_id": "t2", "status": "failed"}]`;

  it("require all / any / N, and the aggregate's keys in order", () => {
    const all = evaluateParallelResults(parallelStep({}), results(ONE_FAILED), "clean");
    expect(all.requireSatisfied).toBe(false);
    expect(all.failureReasons).toEqual(["require='all' not satisfied: 1 completed, 1 failed"]);
    expect(text(all.aggregate)).toBe(
      `{"tasks": [{"task_id": "t1", "result": {}, "status": "complete"}, {"task_id": "t2", "status": "failed"}], "merge_status": "clean", "completed": [{"task_id": "t1", "result": {}, "status": "complete"}], "failed": [{"task_id": "t2", "status": "failed"}], "outcome": "failed"}`,
    );
    expect(
      evaluateParallelResults(parallelStep({ require: "any" }), results(ONE_FAILED), "clean").failureReasons,
    ).toEqual([]);
    const two = evaluateParallelResults(
      parallelStep({ require: { value: 2, float: false } }),
      results(ONE_FAILED),
      "x",
    );
    expect(two.failureReasons).toEqual(["require='2' not satisfied: 1 completed, 1 failed"]);
    const oneFloat = evaluateParallelResults(
      parallelStep({ require: { value: 1, float: true } }),
      results(ONE_FAILED),
      "x",
    );
    expect(oneFloat.requireSatisfied).toBe(true); // B12: 1.0 means 1, not "all"
    const twoFloat = evaluateParallelResults(
      parallelStep({ require: { value: 2, float: true } }),
      results(ONE_FAILED),
      "x",
    );
    expect(twoFloat.failureReasons).toEqual(["require='2.0' not satisfied: 1 completed, 1 failed"]);
  });

  it("an empty list satisfies all; a missing or odd status counts as failed", () => {
    expect(evaluateParallelResults(parallelStep({}), [], "clean").failureReasons).toEqual([]);
    const odd = evaluateParallelResults(
      parallelStep({ require: "any" }),
      results(`[{"task_id": 1}, {"status": "COMPLETE"}, 5]`),
      "clean",
    );
    expect(odd.failureReasons).toEqual(["require='any' not satisfied: 0 completed, 3 failed"]);
  });

  it("only the merge status 'conflict' fails, and its reason wins over require", () => {
    const conflict = evaluateParallelResults(parallelStep({}), results(ONE_FAILED), "conflict");
    expect(conflict.failureReasons).toEqual(["merge conflict: merge_status='conflict'"]);
    expect(evaluateParallelResults(parallelStep({}), [], "whatever").mergeOk).toBe(true);
  });

  it("per-task certificates for Claude agents flip a task to failed on a copy, for others not at all", () => {
    const input = results(
      `[{"task_id": "t1", "result": {"artifact": "## Premises\\n## Conclusion"}, "status": "complete"}, {"task_id": "t2", "result": {"reasoning": "## Premises"}, "status": "complete"}, {"result": "a string result", "status": "complete"}]`,
    );
    const before = text(input);
    for (const agent of [null, "claude:reviewer"]) {
      const e = evaluateParallelResults(
        parallelStep({ taskReasoningTemplate: TEMPLATE }, agent),
        input,
        "clean",
      );
      expect(e.certFailures).toEqual([
        "task 't2' cert: certificate missing section: Conclusion",
        "task '?' cert: certificate missing section: Premises; certificate missing section: Conclusion",
      ]);
      expect(text(e.aggregate.entries.get("tasks")![1])).toContain(
        `{"task_id": "t2", "result": {"reasoning": "## Premises"}, "status": "failed", "error": "cert validation: certificate missing section: Conclusion", "cert_violations": ["certificate missing section: Conclusion"]}`,
      );
      expect(e.failureReasons[0]).toBe("require='all' not satisfied: 1 completed, 2 failed");
    }
    expect(text(input)).toBe(before); // the caller's data is not changed
    const codex = evaluateParallelResults(
      parallelStep({ taskReasoningTemplate: TEMPLATE }, "codex"),
      input,
      "clean",
    );
    expect(codex.certFailures).toEqual([]);
    expect(codex.requireSatisfied).toBe(true);
  });

  it("the outcome stage: checks first (certificate strings appended), then the aggregate", () => {
    const e = evaluateParallelResults(
      parallelStep({ taskReasoningTemplate: TEMPLATE }),
      results(`[{"task_id": "t1", "result": {}, "status": "complete"}]`),
      "clean",
    );
    const texts = (o: ReturnType<typeof parallelOutcome>) =>
      o.ok ? { ok: true } : { ok: false, status: o.status, violations: violationTexts(o.reasons) };
    expect(
      texts(parallelOutcome({ ok: false, status: "ensure_failed", reasons: [ensureFailed(0, "x")] }, e)),
    ).toEqual({
      ok: false,
      status: "ensure_failed",
      violations: ["ensure 'x' failed", e.certFailures[0]],
    });
    const failed = parallelOutcome({ ok: true }, e);
    expect(texts(failed)).toEqual({
      ok: false,
      status: "ensure_failed",
      violations: ["require='all' not satisfied: 0 completed, 1 failed", e.certFailures[0]],
    });
    expect(failed.ok ? [] : failed.reasons.map((v) => v.kind)).toEqual(["require", "task"]);
    const fine = evaluateParallelResults(parallelStep({}), [], "clean");
    expect(parallelOutcome({ ok: true }, fine)).toEqual({ ok: true });
  });

  it("floats in results stay floats", () => {
    const e = evaluateParallelResults(
      parallelStep({}),
      [json(`{"task_id": "t1", "result": {"x": 1.0}, "status": "complete"}`)],
      "clean",
    );
    const tasks = e.aggregate.entries.get("tasks")![1] as PyValue[];
    expect(text(tasks)).toBe(`[{"task_id": "t1", "result": {"x": 1.0}, "status": "complete"}]`);
  });
});
