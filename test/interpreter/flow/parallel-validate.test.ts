// The stratumc extensions of parallel_dispatch judging (docs/design/concurrency-constructs.md §2,
// docs/reference/runtime.md §23.3) through the in-process engine, consumer path: require 0, a member
// contract that fails tasks, and validate (false, raising, passing on a retry, exhaustion).
import { describe, expect, it } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import type { Response } from "../../../interpreter/wire/wire";
import { harness, plain, planOk, result } from "./api-fixtures";
import { text } from "./fixtures";

/** The plain form of a tool response, as an object. */
function obj(r: Parameters<typeof plain>[0]): Record<string, unknown> {
  return plain(r) as Record<string, unknown>;
}

function spec(parallelLines: string, after = ""): string {
  return `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
  Report:
    tests_added: {type: integer}
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
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
${parallelLines}${after}`;
}

const TASKS = `{"tasks": [{"id": "t1", "desc": "one"}, {"id": "t2", "desc": "two"}]}`;
const ok = (id: string, n: number | string = 1) =>
  `{"task_id": "${id}", "result": {"tests_added": ${n}}, "status": "complete"}`;
const bad = (id: string) => `{"task_id": "${id}", "result": null, "status": "failed"}`;

async function atParallel(api: StratumApi, s: string): Promise<string> {
  const plan = await planOk(api, s);
  const id = String(plan.flow_id);
  const payload = await api.stepDone({ flow_id: id, step_id: "analyze", result: result(TASKS) });
  expect(payload.status, JSON.stringify(obj(payload))).toBe("parallel_dispatch");
  return id;
}

function done(api: StratumApi, id: string, tasks: string[]): Promise<Response> {
  return api.parallelDone({
    flow_id: id,
    step_id: "execute",
    task_results: result(`[${tasks.join(", ")}]`),
    merge_status: "clean",
  });
}

describe("require: 0", () => {
  it("every task failed still completes the step; the aggregate gains nothing", async () => {
    const h = harness();
    const id = await atParallel(h.api, spec("        require: 0\n"));
    const r = await done(h.api, id, [bad("t1"), bad("t2")]);
    expect(r.status).toBe("complete");
    expect(text(r.output ?? null)).toBe(
      `{"tasks": [${bad("t1")}, ${bad("t2")}], "merge_status": "clean", "completed": [], "failed": [${bad("t1")}, ${bad("t2")}], "outcome": "complete"}`,
    );
  });

  it("the dispatch payload shows require 0", async () => {
    const h = harness();
    const plan = await planOk(h.api, spec("        require: 0\n"));
    const payload = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "analyze",
      result: result(TASKS),
    });
    expect(text(payload)).toContain(`"require": 0`);
  });
});

describe("member_contract", () => {
  it("a violating complete task becomes failed; require all then fails with the contract string", async () => {
    const h = harness();
    const id = await atParallel(h.api, spec("        member_contract: Report\n"));
    const r = await done(h.api, id, [ok("t1"), ok("t2", '"many"')]);
    expect(r.status).toBe("ensure_failed");
    const v = obj(r).violations as string[];
    expect(v[0]).toBe("require='all' not satisfied: 1 completed, 1 failed");
    expect(v[1]).toMatch(/^task 't2' contract: contract violation: /);
    expect(v).toHaveLength(2);
  });

  it("the failed copy carries status, error and contract_violations", async () => {
    const h = harness();
    const id = await atParallel(h.api, spec("        member_contract: Report\n        require: any\n"));
    const r = await done(h.api, id, [ok("t1"), `{"task_id": "t2", "result": {}, "status": "complete"}`]);
    expect(r.status).toBe("complete");
    const failed = (obj(r).output as { failed: unknown[] }).failed;
    expect(text(failed[0] as never)).toMatch(
      /^\{"task_id": "t2", "result": \{\}, "status": "failed", "error": "contract: contract violation: [^"]+", "contract_violations": \["contract violation: [^"]+"\]\}$/,
    );
  });
});

describe("validate", () => {
  const V = (expr: string) =>
    `        require: 0\n        member_contract: Report\n        validate: "${expr}"\n`;

  it("false fails the step like an ensure; true on the retry completes it", async () => {
    const h = harness();
    const id = await atParallel(h.api, spec(V("sum(r.tests_added for r in results) >= 2")));
    const first = await done(h.api, id, [ok("t1", 1), bad("t2")]);
    expect(first.status).toBe("ensure_failed");
    expect(obj(first).violations).toEqual(["validate 'sum(r.tests_added for r in results) >= 2' failed"]);
    const second = await done(h.api, id, [ok("t1", 1), ok("t2", 1)]);
    expect(second.status).toBe("complete");
  });

  it("sees tasks, completed and failed (ids) after the member-contract check", async () => {
    const h = harness();
    const expr = "completed == ['t1'] and failed == ['t2'] and tasks[1]['status'] == 'failed'";
    const id = await atParallel(h.api, spec(V(expr)));
    const r = await done(h.api, id, [ok("t1"), ok("t2", '"x"')]);
    expect(r.status).toBe("complete");
  });

  it("an exception is a raised violation, with the task failures appended", async () => {
    const h = harness();
    const id = await atParallel(h.api, spec(V("results[5].tests_added > 0")));
    const r = await done(h.api, id, [ok("t1"), ok("t2", '"x"')]);
    const v = obj(r).violations as string[];
    expect(v[0]).toMatch(/^validate 'results\[5\]\.tests_added > 0' raised: list index out of range$/);
    expect(v[1]).toMatch(/^task 't2' contract: /);
  });

  it("is not evaluated when require fails (only the require reason)", async () => {
    const h = harness();
    const id = await atParallel(h.api, spec('        validate: "1/0 == 0"\n'));
    const r = await done(h.api, id, [ok("t1"), bad("t2")]);
    expect(obj(r).violations).toEqual(["require='all' not satisfied: 1 completed, 1 failed"]);
  });

  it("exhaustion follows on_fail like an ensure failure", async () => {
    const h = harness();
    const s = spec(
      `${V("len(results) == 2")}        retries: 1\n        on_fail: fix\n`,
      `      - id: fix\n        intent: "Fix"\n`,
    );
    const id = await atParallel(h.api, s);
    const r = await done(h.api, id, [ok("t1"), bad("t2")]);
    expect(r.status).toBe("execute_step");
    expect(obj(r).step_id).toBe("fix");
  });
});
