// Version 0.3 through the in-process engine, consumer path: a decompose step, then a
// parallel_dispatch step reported with stratum_parallel_done (require all/any/N, merge conflicts,
// per-task certificates, retries and exhaustion with and without on_fail — decision B5), the
// payloads exactly, stratum_step_done on a parallel step, a restart in the middle, and the error
// answers (docs/reference/runtime.md §23.2–23.4, the task graph at dispatch).
import { describe, expect, it } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import type { Response } from "../../../interpreter/wire/wire";
import { harness, plain, planOk, result, stored } from "./api-fixtures";
import { text } from "./fixtures";

interface SpecOptions {
  readonly parallel?: string;
  readonly agent?: string;
  readonly decompose?: string;
  readonly after?: string;
}

function spec(o: SpecOptions = {}): string {
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
        ensure:
          - "no_file_conflicts(result.tasks)"
${o.decompose ?? ""}      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: ${o.agent ?? "claude"}
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
${o.parallel ?? ""}${o.after ?? ""}`;
}

const FIX = `      - id: fix
        intent: "Fix what failed"
`;

const TASKS = `{"tasks": [{"id": "t1", "desc": "one", "files_owned": ["a.py"]}, {"id": "t2", "desc": "two", "files_owned": ["b.py"]}]}`;

const ok = (id: string, extra = "") =>
  `{"task_id": "${id}", "result": {"done": true${extra}}, "status": "complete"}`;
const bad = (id: string) => `{"task_id": "${id}", "result": null, "status": "failed"}`;

async function atParallel(
  api: StratumApi,
  s: string,
  tasks = TASKS,
): Promise<{ id: string; payload: Response }> {
  const plan = await planOk(api, s);
  const id = String(plan.flow_id);
  const payload = await api.stepDone({ flow_id: id, step_id: "analyze", result: result(tasks) });
  expect(payload.status, JSON.stringify(plain(payload))).toBe("parallel_dispatch");
  return { id, payload };
}

function done(api: StratumApi, id: string, tasks: string[], merge = "clean"): Promise<Response> {
  return api.parallelDone({
    flow_id: id,
    step_id: "execute",
    task_results: result(`[${tasks.join(", ")}]`),
    merge_status: merge,
  });
}

describe("decompose steps", () => {
  it("dispatch as execute_step with step_mode decompose, no model, retries default 2", async () => {
    const h = harness();
    const plan = await planOk(h.api, spec());
    expect(text(plan)).toBe(
      `{"status": "execute_step", "flow_id": "${plan.flow_id}", "step_number": 1, "total_steps": 2, "step_id": "analyze", "step_mode": "decompose", "intent": "Break down", "agent": "claude", "inputs": {}, "output_contract": "TaskGraph", "output_fields": {"tasks": "array"}, "ensure": ["no_file_conflicts(result.tasks)"], "retries_remaining": 2}`,
    );
  });

  it("get the certificate instructions of a Claude agent and are checked like inline steps", async () => {
    const h = harness();
    const s = spec({
      decompose:
        '        reasoning_template:\n          sections:\n            - {id: p, label: Plan, description: "The plan."}\n',
    });
    const plan = await planOk(h.api, s);
    expect(String(plan.intent)).toContain(
      "You MUST structure your response with these sections:\n\n## Plan\nThe plan.",
    );
    const id = String(plan.flow_id);
    const missing = await h.api.stepDone({ flow_id: id, step_id: "analyze", result: result(TASKS) });
    expect(plain(missing)).toMatchObject({
      status: "ensure_failed",
      violations: ["certificate missing section: Plan"],
      retries_remaining: 1,
    });
    const withArtifact = TASKS.replace("{", `{"artifact": "## Plan\\nsplit in two", `);
    expect(
      (await h.api.stepDone({ flow_id: id, step_id: "analyze", result: result(withArtifact) })).status,
    ).toBe("parallel_dispatch");
  });

  it("a file ownership conflict fails no_file_conflicts; exhaustion leaves a decompose StepRecord", async () => {
    const h = harness();
    const plan = await planOk(h.api, spec());
    const id = String(plan.flow_id);
    const clash = `{"tasks": [{"id": "t1", "files_owned": ["a.py"]}, {"id": "t2", "files_owned": ["a.py"]}]}`;
    const first = await h.api.stepDone({ flow_id: id, step_id: "analyze", result: result(clash) });
    expect(plain(first)).toMatchObject({
      status: "ensure_failed",
      step_mode: "decompose",
      retries_remaining: 1,
    });
    const second = await h.api.stepDone({ flow_id: id, step_id: "analyze", result: result(clash) });
    expect(plain(second)).toMatchObject({
      status: "error",
      error_type: "retries_exhausted",
      step_mode: "decompose",
    });
    const state = await stored(h.store, id);
    expect(state.records).toMatchObject([
      { step_id: "analyze", step_mode: "decompose", function_name: "", attempts: 2 },
    ]);
  });
});

describe("parallel_dispatch payload", () => {
  it("has the reference's keys in order, the tasks resolved from source and the defaults", async () => {
    const h = harness();
    const { id, payload } = await atParallel(h.api, spec());
    expect(text(payload)).toBe(
      `{"status": "parallel_dispatch", "flow_id": "${id}", "step_number": 2, "total_steps": 2, "step_id": "execute", "step_mode": "parallel_dispatch", "tasks": [{"id": "t1", "desc": "one", "files_owned": ["a.py"]}, {"id": "t2", "desc": "two", "files_owned": ["b.py"]}], "agent": "claude", "max_concurrent": 3, "isolation": "worktree", "require": "all", "merge": "sequential_apply", "intent_template": "Do: {task.desc}", "ensure": [], "retries_remaining": 2}`,
    );
  });

  it("echoes the written values, floats as floats", async () => {
    const h = harness();
    const s = spec({
      parallel:
        "        max_concurrent: 2.0\n        isolation: none\n        require: 2.0\n        merge: manual\n        retries: 3\n        ensure: [\"result.outcome == 'complete'\"]\n",
    });
    const { payload } = await atParallel(h.api, s);
    expect(text(payload)).toContain(
      `"max_concurrent": 2.0, "isolation": "none", "require": 2.0, "merge": "manual", "intent_template": "Do: {task.desc}", "ensure": ["result.outcome == 'complete'"], "retries_remaining": 3}`,
    );
  });

  it("an unresolvable source is an execution error and nothing is committed (B7)", async () => {
    const h = harness();
    const s = `version: "0.3"
flows:
  main:
    input: {}
    steps:
      - id: prep
        intent: "Prepare"
      - id: execute
        type: parallel_dispatch
        source: "$.steps.prep.output.tasks"
        intent_template: "Do {id}"
`;
    const plan = await planOk(h.api, s);
    const id = String(plan.flow_id);
    const r = await h.api.stepDone({ flow_id: id, step_id: "prep", result: result(`{"other": 1}`) });
    expect(plain(r)).toEqual({
      status: "error",
      success: false,
      error_type: "execution_error",
      message: "Key 'tasks' not found in $.steps.prep.output — available keys: ['other']",
      flow_name: "main",
      step_id: "execute",
      source: "$.steps.prep.output.tasks",
    });
    const state = await stored(h.store, id);
    expect(state.current_idx).toBe(0);
    expect(state.attempts.size).toBe(0);
    expect(state.step_outputs.size).toBe(0);
  });

  it("a dependency cycle, a duplicate id or an unknown dependency is an execution error naming it", async () => {
    const cases: [string, string][] = [
      [
        `{"tasks": [{"id": "a", "depends_on": ["b"]}, {"id": "b", "depends_on": ["a"]}]}`,
        "Step 'execute': task dependency cycle: a -> b -> a",
      ],
      [`{"tasks": [{"id": "a"}, {"id": "a"}]}`, "Step 'execute': duplicate task id 'a'"],
      [
        `{"tasks": [{"id": "a", "depends_on": ["q"]}]}`,
        "Step 'execute': task 'a' depends_on unknown task 'q'",
      ],
    ];
    for (const [tasks, message] of cases) {
      const h = harness();
      const plan = await planOk(h.api, spec());
      const id = String(plan.flow_id);
      const r = await h.api.stepDone({ flow_id: id, step_id: "analyze", result: result(tasks) });
      expect(plain(r)).toMatchObject({ status: "error", error_type: "execution_error", message });
      expect((await stored(h.store, id)).current_idx).toBe(0);
    }
  });
});

describe("stratum_parallel_done", () => {
  it("advances on success: the aggregate is the step's output, records carry the step modes", async () => {
    const h = harness();
    const { id } = await atParallel(h.api, spec());
    const r = await done(h.api, id, [ok("t1"), ok("t2")]);
    expect(r.status).toBe("complete");
    expect(plain(r)).toMatchObject({
      output: {
        merge_status: "clean",
        outcome: "complete",
        completed: [{ task_id: "t1" }, { task_id: "t2" }],
        failed: [],
      },
    });
    expect(Object.keys((plain(r) as { output: object }).output)).toEqual([
      "tasks",
      "merge_status",
      "completed",
      "failed",
      "outcome",
    ]);
    const state = await stored(h.store, id);
    expect(state.records).toMatchObject([
      { step_id: "analyze", step_mode: "decompose", function_name: "", agent: "claude" },
      { step_id: "execute", step_mode: "parallel_dispatch", function_name: "", agent: "claude", attempts: 1 },
    ]);
    expect(state.parallel_tasks.size).toBe(0);
  });

  it("require all: a failed task fails the step, then exhausts it with a StepRecord (B5)", async () => {
    const h = harness();
    const { id } = await atParallel(h.api, spec());
    const first = await done(h.api, id, [ok("t1"), bad("t2")]);
    expect(plain(first)).toMatchObject({
      status: "ensure_failed",
      step_id: "execute",
      retries_remaining: 1,
      violations: ["require='all' not satisfied: 1 completed, 1 failed"],
    });
    expect(Object.keys(first).slice(0, 6)).toEqual([
      "status",
      "flow_id",
      "step_number",
      "total_steps",
      "step_id",
      "step_mode",
    ]);
    const second = await done(h.api, id, [ok("t1"), ok("t2")], "conflict");
    expect(text(second)).toBe(
      `{"status": "error", "error_type": "retries_exhausted", "flow_id": "${id}", "step_id": "execute", "step_mode": "parallel_dispatch", "agent": "claude", "message": "Step 'execute' exhausted all retries", "violations": ["merge conflict: merge_status='conflict'"], "bounced_tasks": []}`,
    );
    const state = await stored(h.store, id);
    expect(state.status).toBe("exhausted");
    expect(state.records[state.records.length - 1]).toMatchObject({
      step_id: "execute",
      step_mode: "parallel_dispatch",
      attempts: 2,
    });
  });

  it("exhaustion with on_fail stores the aggregate and routes with the violations", async () => {
    const h = harness();
    const s = spec({ parallel: "        retries: 1\n        on_fail: fix\n", after: FIX });
    const { id } = await atParallel(h.api, s);
    const r = await done(h.api, id, [ok("t1"), bad("t2")]);
    expect(plain(r)).toMatchObject({
      status: "execute_step",
      step_id: "fix",
      routed_from: "execute",
      violations: ["require='all' not satisfied: 1 completed, 1 failed"],
    });
    const state = await stored(h.store, id);
    expect(plain({ o: state.step_outputs.get("execute") })).toMatchObject({
      o: { outcome: "failed", failed: [{ task_id: "t2" }] },
    });
    expect(state.records[state.records.length - 1]).toMatchObject({ step_id: "execute", attempts: 1 });
  });

  it("require any passes with one completed task; none completed fails", async () => {
    const h = harness();
    const s = spec({ parallel: "        require: any\n" });
    const { id } = await atParallel(h.api, s);
    const none = await done(h.api, id, [bad("t1"), bad("t2")]);
    expect(plain(none)).toMatchObject({
      status: "ensure_failed",
      violations: ["require='any' not satisfied: 0 completed, 2 failed"],
    });
    expect((await done(h.api, id, [ok("t1"), bad("t2")])).status).toBe("complete");
  });

  it("require N counts completed tasks; an integral float means N (B12)", async () => {
    for (const n of ["2", "2.0"]) {
      const h = harness();
      const s = spec({ parallel: `        require: ${n}\n` });
      const three = `{"tasks": [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}]}`;
      const { id } = await atParallel(h.api, s, three);
      const one = await done(h.api, id, [ok("t1"), bad("t2"), bad("t3")]);
      expect(plain(one)).toMatchObject({
        status: "ensure_failed",
        violations: [`require='${n}' not satisfied: 1 completed, 2 failed`],
      });
      expect((await done(h.api, id, [ok("t1"), ok("t2"), bad("t3")])).status).toBe("complete");
    }
  });

  it("a merge conflict fails the step; any other merge status is clean", async () => {
    const h = harness();
    const { id } = await atParallel(h.api, spec());
    const conflict = await done(h.api, id, [ok("t1"), ok("t2")], "conflict");
    expect(plain(conflict)).toMatchObject({
      status: "ensure_failed",
      violations: ["merge conflict: merge_status='conflict'"],
    });
    const other = await done(h.api, id, [ok("t1"), ok("t2")], "whatever");
    expect(plain(other)).toMatchObject({
      status: "complete",
      output: { merge_status: "whatever", outcome: "complete" },
    });
  });

  it("an ensure failure lists the ensure violations (not the require reason), then the certificate strings", async () => {
    const h = harness();
    const s = spec({
      parallel:
        "        ensure: [\"result.outcome == 'complete'\"]\n        task_reasoning_template: {require_citations: false}\n",
    });
    const { id } = await atParallel(h.api, s);
    const r = await done(h.api, id, [ok("t1"), bad("t2")]);
    expect(plain(r)).toMatchObject({
      status: "ensure_failed",
      violations: [
        "ensure 'result.outcome == 'complete'' failed",
        "task 't1' cert: certificate missing section: Premises; certificate missing section: Trace; certificate missing section: Conclusion",
      ],
    });
  });

  const GOOD = `, "artifact": "## Premises\\n[P1] x\\n## Trace\\nt\\n## Conclusion\\nc [P1]"`;

  it("per-task certificates: a Claude agent's bad certificate fails its task; a codex agent's is not checked", async () => {
    const s = (agent: string) =>
      spec({
        agent,
        parallel: "        retries: 1\n        task_reasoning_template: {require_citations: false}\n",
      });
    const h = harness();
    const { id } = await atParallel(h.api, s("claude:reviewer"));
    const r = await done(h.api, id, [ok("t1", GOOD), ok("t2")]);
    expect(plain(r)).toMatchObject({
      status: "error",
      error_type: "retries_exhausted",
      violations: [
        "require='all' not satisfied: 1 completed, 1 failed",
        "task 't2' cert: certificate missing section: Premises; certificate missing section: Trace; certificate missing section: Conclusion",
      ],
    });
    const passing = harness();
    const again = await atParallel(passing.api, s("claude"));
    expect((await done(passing.api, again.id, [ok("t1", GOOD), ok("t2", GOOD)])).status).toBe("complete");
    const codex = harness();
    const c = await atParallel(codex.api, s("codex"));
    expect((await done(codex.api, c.id, [ok("t1"), ok("t2")])).status).toBe("complete");
  });

  it("a failed certificate is visible in the stored aggregate (status, error, cert_violations)", async () => {
    const h = harness();
    const s = spec({
      parallel: "        require: any\n        task_reasoning_template: {require_citations: false}\n",
    });
    const { id } = await atParallel(h.api, s);
    const r = await done(h.api, id, [
      ok("t1", GOOD),
      `{"task_id": "t2", "result": "plain text", "status": "complete"}`,
    ]);
    expect(r.status).toBe("complete");
    expect(plain(r)).toMatchObject({
      output: {
        tasks: [
          { task_id: "t1", status: "complete" },
          {
            task_id: "t2",
            result: "plain text",
            status: "failed",
            error:
              "cert validation: certificate missing section: Premises; certificate missing section: Trace; certificate missing section: Conclusion",
            cert_violations: [
              "certificate missing section: Premises",
              "certificate missing section: Trace",
              "certificate missing section: Conclusion",
            ],
          },
        ],
      },
    });
  });

  it("answers flow_not_found, step_mismatch, wrong_step_type and flow_complete without committing", async () => {
    const h = harness();
    const plan = await planOk(h.api, spec());
    const id = String(plan.flow_id);
    expect(text(await done(h.api, "nope", []))).toBe(
      `{"status": "error", "error_type": "flow_not_found", "message": "No active flow with id 'nope'"}`,
    );
    expect(
      text(await h.api.parallelDone({ flow_id: id, step_id: "x", task_results: [], merge_status: "clean" })),
    ).toBe(
      `{"status": "error", "error_type": "step_mismatch", "message": "Expected step 'analyze', got 'x'"}`,
    );
    expect(
      text(
        await h.api.parallelDone({
          flow_id: id,
          step_id: "analyze",
          task_results: [],
          merge_status: "clean",
        }),
      ),
    ).toBe(
      `{"status": "error", "error_type": "wrong_step_type", "message": "Step 'analyze' is a decompose step, not parallel_dispatch. Use stratum_step_done for non-parallel steps."}`,
    );
    await h.api.stepDone({ flow_id: id, step_id: "analyze", result: result(TASKS) });
    expect((await done(h.api, id, [ok("t1"), ok("t2")])).status).toBe("complete");
    expect(text(await done(h.api, id, []))).toBe(
      `{"status": "error", "error_type": "flow_complete", "message": "Flow is already complete"}`,
    );
    expect((await stored(h.store, id)).attempts.get("execute")).toBe(1);
  });

  it("stratum_step_done on a parallel step treats its result as the aggregate (no require check)", async () => {
    const h = harness();
    const s = spec({ parallel: "        ensure: [\"result.outcome == 'complete'\"]\n" });
    const { id } = await atParallel(h.api, s);
    const wrong = await h.api.stepDone({
      flow_id: id,
      step_id: "execute",
      result: result(`{"outcome": "failed"}`),
    });
    expect(plain(wrong)).toMatchObject({
      status: "ensure_failed",
      step_mode: "parallel_dispatch",
      retries_remaining: 1,
    });
    const right = await h.api.stepDone({
      flow_id: id,
      step_id: "execute",
      result: result(`{"outcome": "complete"}`),
    });
    expect(plain(right)).toMatchObject({ status: "complete", output: { outcome: "complete" } });
    expect((await stored(h.store, id)).records[1]).toMatchObject({
      step_mode: "parallel_dispatch",
      attempts: 2,
    });
  });

  it("a restart in the middle: a new engine resumes the parallel step and finishes it", async () => {
    const h = harness();
    const { id, payload } = await atParallel(h.api, spec());
    const first = await done(h.api, id, [ok("t1"), bad("t2")]);
    expect(first.status).toBe("ensure_failed");
    const api = h.restart();
    const resumed = await api.resume({ flow_id: id });
    expect(plain(resumed)).toEqual({ ...(plain(payload) as object), retries_remaining: 1 });
    const r = await done(api, id, [ok("t1"), ok("t2")]);
    expect(plain(r)).toMatchObject({ status: "complete", output: { outcome: "complete" } });
    const state = await stored(h.store, id);
    expect(state.records[1]).toMatchObject({ step_id: "execute", attempts: 2 });
  });

  it("skip_if and stratum_skip_step skip a parallel step like any other (output null)", async () => {
    const h = harness();
    const s = spec({ parallel: '        skip_if: "$.steps.analyze.output.tasks == []"\n', after: FIX });
    const plan = await planOk(h.api, s);
    const id = String(plan.flow_id);
    const skipped = await h.api.stepDone({
      flow_id: id,
      step_id: "analyze",
      result: result(`{"tasks": []}`),
    });
    expect(plain(skipped)).toMatchObject({ status: "execute_step", step_id: "fix" });
    expect((await stored(h.store, id)).step_outputs.get("execute")).toBeNull();

    const other = harness();
    const { id: second } = await atParallel(other.api, spec({ after: FIX }));
    const r = await other.api.skipStep({ flow_id: second, step_id: "execute", reason: "done by hand" });
    expect(plain(r)).toMatchObject({ status: "execute_step", step_id: "fix" });
    expect((await stored(other.store, second)).records[1]).toMatchObject({
      step_id: "execute",
      type: "skip",
    });
  });

  it("refuses a task_results value that is not a list", async () => {
    const h = harness();
    const { id } = await atParallel(h.api, spec());
    const r = await h.api.parallelDone({
      flow_id: id,
      step_id: "execute",
      task_results: result("{}"),
      merge_status: "clean",
    });
    expect(plain(r)).toMatchObject({ status: "error", error_type: "invalid_arguments" });
  });
});
