// The stratumc extensions of parallel_dispatch (docs/design/concurrency-constructs.md §2) through the
// built stratum-mcp over stdio: `require: 0` with every task failed completes the step, a
// member-contract violation fails a task under `require: all`, and `validate` false then true on
// the retry — with a new server on the same STRATUM_HOME continuing in the middle.
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import type { McpStratumApi } from "./support/mcp-api";
import { restartableServer } from "./support/restartable-server";

function spec(stepLines: string): string {
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
        agent: claude
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
${stepLines}`;
}

const TASKS = `{"tasks": [{"id": "t1", "desc": "one"}, {"id": "t2", "desc": "two"}]}`;
const ok = (id: string, n: number | string) =>
  `{"task_id": "${id}", "result": {"tests_added": ${n}}, "status": "complete"}`;
const bad = (id: string) => `{"task_id": "${id}", "status": "failed"}`;

type Plain = Record<string, unknown>;

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}

describe("require: 0, member_contract and validate over MCP", () => {
  const servers = restartableServer("stratum-mcp-validate-");
  /** A (new) server on the same STRATUM_HOME. */
  const restart = () => servers.restart();

  async function atParallel(api: McpStratumApi, s: string): Promise<string> {
    const plan = p(await api.plan({ spec: s, flow: "main", inputs: new PyDict() }));
    expect(plan).toMatchObject({ status: "execute_step", step_id: "analyze" });
    const id = String(plan.flow_id);
    const dispatched = p(await api.stepDone({ flow_id: id, step_id: "analyze", result: parseJson(TASKS) }));
    expect(dispatched).toMatchObject({ status: "parallel_dispatch", step_id: "execute" });
    return id;
  }

  async function done(api: McpStratumApi, id: string, tasks: string[]): Promise<Plain> {
    return p(
      await api.parallelDone({
        flow_id: id,
        step_id: "execute",
        task_results: parseJson(`[${tasks.join(", ")}]`),
        merge_status: "clean",
      }),
    );
  }

  it("require: 0 completes the step with every task failed", async () => {
    const api = await restart();
    const id = await atParallel(api, spec("        require: 0\n"));
    expect(await done(api, id, [bad("t1"), bad("t2")])).toMatchObject({
      status: "complete",
      output: { outcome: "complete", completed: [], failed: [{ task_id: "t1" }, { task_id: "t2" }] },
    });
    expect(api.problems).toEqual([]);
  });

  it("a member-contract violation fails the task under require: all", async () => {
    const api = await restart();
    const id = await atParallel(api, spec("        member_contract: Report\n"));
    const answer = await done(api, id, [ok("t1", 1), ok("t2", '"three"')]);
    expect(answer).toMatchObject({ status: "ensure_failed", step_id: "execute" });
    const violations = answer.violations as string[];
    expect(violations[0]).toBe("require='all' not satisfied: 1 completed, 1 failed");
    expect(violations[1]).toMatch(/^task 't2' contract: contract violation: .*tests_added/);
    expect(violations).toHaveLength(2);
    expect(api.problems).toEqual([]);
  });

  it("validate false, a restart, then validate true on the retry", async () => {
    let api = await restart();
    const s = spec(
      '        require: 0\n        member_contract: Report\n        validate: "sum(r.tests_added for r in results) >= 2"\n',
    );
    const id = await atParallel(api, s);
    expect(await done(api, id, [ok("t1", 1), bad("t2")])).toMatchObject({
      status: "ensure_failed",
      step_id: "execute",
      retries_remaining: 1,
      violations: ["validate 'sum(r.tests_added for r in results) >= 2' failed"],
    });

    api = await restart();
    expect(p(await api.resume({ flow_id: id }))).toMatchObject({
      status: "parallel_dispatch",
      step_id: "execute",
      retries_remaining: 1,
    });
    expect(await done(api, id, [ok("t1", 1), ok("t2", 1)])).toMatchObject({
      status: "complete",
      output: { outcome: "complete", completed: [{ task_id: "t1" }, { task_id: "t2" }] },
    });
    expect(p(await api.audit({ flow_id: id }))).toMatchObject({
      status: "complete",
      trace: [{ step_id: "analyze" }, { step_id: "execute", attempts: 2 }],
    });
    expect(api.problems).toEqual([]);
  });
});
