// Version 0.3 server path through the in-process engine: stratum_parallel_start / _poll /
// _advance — their error answers in the reference's order with the B6 envelope, the
// `server_dispatch_unavailable` answer without an agent runner, and the executor over an
// in-memory fake runner (max_concurrent, depends_on, require cascade cancel, timeouts, per-task
// certificates), the persisted `parallel_tasks` entries, B1 (a require failure blocks the advance)
// and B2 (a re-dispatch drops the entries, so the step can run again).
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine, type EngineApi } from "../../../interpreter/engine/create-api";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type { Response } from "../../../interpreter/wire/wire";
import { parseJson } from "../../../stdlib/values/json";
import type { PyDict } from "../../../stdlib/values/value";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { plain, planOk, result, stored } from "./api-fixtures";
import { text } from "./fixtures";

/** `result` is JSON text (floats stay floats). */
type Behaviour =
  | { readonly ok: true; readonly result: string }
  | { readonly ok: false; readonly error: string }
  | "hang"
  | "throw";

/** A runner whose tasks do what the test says; a hanging task settles when aborted. */
class FakeRunner {
  readonly requests: ParallelTaskRequest[] = [];
  readonly order: string[] = [];
  active = 0;
  maxActive = 0;

  constructor(private readonly behaviour: (taskId: string) => Behaviour) {}

  async runTask(request: ParallelTaskRequest, signal: AbortSignal): Promise<ParallelTaskOutcome> {
    this.requests.push(request);
    this.order.push(`start ${request.taskId}`);
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      await new Promise((r) => setImmediate(r)); // the answer comes later, but no time passes
      const b = this.behaviour(request.taskId);
      if (b === "throw") throw new Error("runner crashed");
      if (b === "hang") {
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          else signal.addEventListener("abort", () => resolve());
        });
        return { ok: false, error: "aborted" };
      }
      if (!b.ok) return { ok: false, error: b.error, tokens: 5 };
      return { ok: true, result: parseJson(b.result), tokens: 7 };
    } finally {
      this.active -= 1;
      this.order.push(`end ${request.taskId}`);
    }
  }
}

interface Setup {
  readonly api: EngineApi;
  readonly store: MemoryStore;
  readonly clock: ManualClock;
  readonly timers: (() => void)[];
}

function engine(runner?: FakeRunner): Setup {
  const store = new MemoryStore();
  const clock = new ManualClock();
  const timers: (() => void)[] = [];
  const api = createEngine({
    store,
    clock,
    ids: new SequentialIds(),
    cwd: "/work/project",
    files: () => null,
    workspace: nodeWorkspace,
    verifyEdits: true,
    ...(runner === undefined ? {} : { parallelRunner: runner }),
    // Timeouts fire only when the test calls them.
    parallelTimer: (_ms, fn) => {
      timers.push(fn);
      return () => undefined;
    },
  });
  return { api, store, clock, timers };
}

function spec(parallel = "", tasks = `[{"id": "t1", "desc": "one"}, {"id": "t2", "desc": "two"}]`): string {
  return `version: "0.3"
flows:
  main:
    input:
      tasks: {type: array}
    steps:
      - id: first
        intent: "First"
      - id: execute
        type: parallel_dispatch
        source: "$.input.tasks"
        intent_template: "Do {task.id}: {desc}"
        depends_on: [first]
${parallel}      - id: last
        intent: "Last"
`.replace("TASKS", tasks);
}

const TWO = `{"tasks": [{"id": "t1", "desc": "one"}, {"id": "t2", "desc": "two"}]}`;

async function atParallel(s: Setup, specText = spec(), inputs = TWO): Promise<string> {
  const plan = await planOk(s.api, specText, "main", inputs);
  const id = String(plan.flow_id);
  const r = await s.api.stepDone({ flow_id: id, step_id: "first", result: result("{}") });
  expect(r.status, JSON.stringify(plain(r))).toBe("parallel_dispatch");
  return id;
}

const args = (flow_id: string, step_id = "execute") => ({ flow_id, step_id });

describe("stratum_parallel_start without an agent runner", () => {
  it("checks in the reference's order, then answers server_dispatch_unavailable and changes nothing", async () => {
    const s = engine();
    expect(text(await s.api.parallelStart(args("nope")))).toBe(
      `{"status": "error", "error_type": "flow_not_found", "message": "No active flow with id 'nope'"}`,
    );
    const plan = await planOk(s.api, spec(), "main", TWO);
    const id = String(plan.flow_id);
    expect(text(await s.api.parallelStart(args(id)))).toBe(
      `{"status": "error", "error_type": "step_mismatch", "error": "step_mismatch", "message": "Expected step 'first', got 'execute'"}`,
    );
    expect(text(await s.api.parallelStart(args(id, "first")))).toBe(
      `{"status": "error", "error_type": "wrong_step_type", "error": "wrong_step_type", "message": "Step 'first' is a inline step, not parallel_dispatch."}`,
    );
    await s.api.stepDone({ flow_id: id, step_id: "first", result: result("{}") });
    const r = await s.api.parallelStart(args(id));
    expect(plain(r)).toMatchObject({
      status: "error",
      error_type: "server_dispatch_unavailable",
      error: "server_dispatch_unavailable",
    });
    expect(String(r.message)).toContain("stratum_parallel_done");
    expect((await stored(s.store, id)).parallel_tasks.size).toBe(0);
    // Consumer-side dispatch still works.
    const done = await s.api.parallelDone({
      flow_id: id,
      step_id: "execute",
      task_results: result("[]"),
      merge_status: "clean",
    });
    expect(done.status).toBe("execute_step");
    await s.api.stepDone({ flow_id: id, step_id: "last", result: result("{}") });
    expect(text(await s.api.parallelStart(args(id)))).toBe(
      `{"status": "error", "error_type": "flow_complete", "error": "flow_complete", "message": "Flow is already complete"}`,
    );
  });

  it("refuses branch isolation with the reference's prose, and empty or odd task lists", async () => {
    const s = engine(new FakeRunner(() => ({ ok: true, result: "{}" })));
    const branch = await atParallel(s, spec("        isolation: branch\n"));
    const prose =
      "branch-mode isolation is not yet supported in server-side parallel dispatch (see roadmap T2-F5-BRANCH). Use 'worktree' or 'none'.";
    expect(plain(await s.api.parallelStart(args(branch)))).toEqual({
      status: "error",
      error_type: "branch_isolation_unsupported",
      error: prose,
      message: prose,
    });
    const empty = await atParallel(s, spec(), `{"tasks": []}`);
    expect(plain(await s.api.parallelStart(args(empty)))).toMatchObject({
      error_type: "no_tasks",
      message: "Step 'execute' source resolved to zero tasks.",
    });
    const noIds = await atParallel(s, spec(), `{"tasks": [{"desc": "x"}]}`);
    expect(plain(await s.api.parallelStart(args(noIds)))).toMatchObject({
      error_type: "invalid_tasks",
      message: "Task 0 of step 'execute' is not an object with a string 'id'.",
    });
  });
});

describe("stratum_parallel_poll and stratum_parallel_advance errors", () => {
  it("poll: flow_not_found, unknown_step, not dispatched (also on a non-parallel step)", async () => {
    const s = engine();
    const id = await atParallel(s);
    expect(plain(await s.api.parallelPoll(args("nope")))).toEqual({
      status: "error",
      error_type: "flow_not_found",
      error: "flow_not_found",
      message: "No active flow with id 'nope'",
    });
    expect(plain(await s.api.parallelPoll(args(id, "zz")))).toMatchObject({
      error_type: "unknown_step",
      message: "Step 'zz' not found in flow",
    });
    const prose = "step 'execute' not dispatched yet; call stratum_parallel_start first";
    expect(plain(await s.api.parallelPoll(args(id)))).toEqual({
      status: "error",
      error_type: "not_dispatched",
      error: prose,
      message: prose,
    });
    expect(plain(await s.api.parallelPoll(args(id, "first")))).toMatchObject({
      error_type: "not_dispatched",
    });
  });

  it("advance: unknown_step, wrong_step_type, advance_not_deferred, invalid_merge_status, step_not_dispatched, already_advanced", async () => {
    const s = engine();
    const plain2 = await atParallel(s);
    expect(plain(await s.api.parallelAdvance({ ...args("nope"), merge_status: "clean" }))).toMatchObject({
      error_type: "flow_not_found",
    });
    expect(
      plain(await s.api.parallelAdvance({ ...args(plain2, "zz"), merge_status: "clean" })),
    ).toMatchObject({ error_type: "unknown_step" });
    expect(
      plain(await s.api.parallelAdvance({ ...args(plain2, "first"), merge_status: "clean" })),
    ).toMatchObject({
      error_type: "wrong_step_type",
      message: "Step 'first' is not a parallel_dispatch step",
    });
    expect(plain(await s.api.parallelAdvance({ ...args(plain2), merge_status: "clean" }))).toMatchObject({
      error_type: "advance_not_deferred",
      message:
        "Step 'execute' does not have defer_advance: true. Auto-advance fires from stratum_parallel_poll; this tool is a no-op.",
    });
    const deferred = await atParallel(s, spec("        defer_advance: true\n"));
    expect(plain(await s.api.parallelAdvance({ ...args(deferred), merge_status: "dirty" }))).toMatchObject({
      error_type: "invalid_merge_status",
      message:
        "merge_status must be 'clean' | 'conflict' or {status: 'clean'|'conflict', bounced_tasks?}, got 'dirty'",
    });
    // The object form is judged on its status; the message shows the object as Python's repr.
    const dirtyObject = result(`{"status": "dirty", "bounced_tasks": []}`);
    expect(
      plain(await s.api.parallelAdvance({ ...args(deferred), merge_status: dirtyObject as PyDict })),
    ).toMatchObject({
      error_type: "invalid_merge_status",
      message:
        "merge_status must be 'clean' | 'conflict' or {status: 'clean'|'conflict', bounced_tasks?}, got {'status': 'dirty', 'bounced_tasks': []}",
    });
    expect(plain(await s.api.parallelAdvance({ ...args(deferred), merge_status: "clean" }))).toMatchObject({
      error_type: "step_not_dispatched",
      message: "Step 'execute' not dispatched yet; call stratum_parallel_start first",
    });
    await s.api.parallelDone({
      flow_id: deferred,
      step_id: "execute",
      task_results: result("[]"),
      merge_status: "clean",
    });
    expect(text(await s.api.parallelAdvance({ ...args(deferred), merge_status: "conflict" }))).toBe(
      `{"status": "already_advanced", "step_id": "execute"}`,
    );
  });
});

describe("server-side dispatch over an agent runner", () => {
  it("runs every task, persists the entries, and poll advances the flow", async () => {
    const runner = new FakeRunner((t) => ({ ok: true, result: `{"summary": "did ${t}", "score": 1.0}` }));
    const s = engine(runner);
    const id = await atParallel(s);
    expect(text(await s.api.parallelStart(args(id)))).toBe(
      `{"status": "started", "flow_id": "${id}", "step_id": "execute", "task_count": 2, "tasks": ["t1", "t2"]}`,
    );
    expect(plain(await s.api.parallelStart(args(id)))).toMatchObject({ error_type: "already_started" });
    await s.api.parallelSettled();
    expect(runner.requests.map((r) => [r.taskId, r.prompt, r.cwd, r.isolation, r.timeoutSeconds])).toEqual([
      ["t1", "Do t1: one", "/work/project", "worktree", 1800],
      ["t2", "Do t2: two", "/work/project", "worktree", 1800],
    ]);
    const stateBefore = await stored(s.store, id);
    expect(text(stateBefore.parallel_tasks.get("t1") ?? null)).toBe(
      `{"task_id": "t1", "state": "complete", "started_at": 1700000000.0, "finished_at": 1700000000.0, "result": {"summary": "did t1", "score": 1.0}, "error": null, "cert_violations": null, "worktree_path": null, "diff": null, "diff_error": null, "tokens": 7, "elapsed_s": 0.0, "dollars_recorded": 0.0}`,
    );
    const poll = await s.api.parallelPoll(args(id));
    expect(Object.keys(poll)).toEqual([
      "flow_id",
      "step_id",
      "summary",
      "tasks",
      "require_satisfied",
      "can_advance",
      "outcome",
    ]);
    expect(plain(poll)).toMatchObject({
      summary: { pending: 0, running: 0, complete: 2, failed: 0, cancelled: 0, skipped: 0, reparenting: 0 },
      require_satisfied: true,
      can_advance: true,
      outcome: { status: "execute_step", step_id: "last" },
    });
    const state = await stored(s.store, id);
    expect(plain({ o: state.step_outputs.get("execute") })).toMatchObject({
      o: {
        outcome: "complete",
        merge_status: "clean",
        tasks: [{ task_id: "t1", status: "complete" }, { task_id: "t2" }],
      },
    });
    expect(state.records[state.records.length - 1]).toMatchObject({
      step_id: "execute",
      step_mode: "parallel_dispatch",
    });
    const again = await s.api.parallelPoll(args(id));
    expect(plain(again)).toMatchObject({
      outcome: { status: "already_advanced", aggregate: { outcome: "complete" } },
    });
  });

  it("require all: a failure cancels the waiting tasks; poll does not advance (B1) and the step can run again (B2)", async () => {
    let fail = true;
    const runner = new FakeRunner((t) =>
      t === "t1" && fail ? { ok: false, error: "boom" } : { ok: true, result: "{}" },
    );
    const s = engine(runner);
    const three = `{"tasks": [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}]}`;
    const id = await atParallel(s, spec("        max_concurrent: 1\n"), three);
    await s.api.parallelStart(args(id));
    await s.api.parallelSettled();
    expect(runner.requests.map((r) => r.taskId)).toEqual(["t1"]);
    const poll = await s.api.parallelPoll(args(id));
    expect(plain(poll)).toMatchObject({
      summary: { complete: 0, failed: 1, cancelled: 2 },
      tasks: { t1: { state: "failed", error: "boom", tokens: 5 }, t2: { state: "cancelled", error: null } },
      require_satisfied: false,
      can_advance: false,
      outcome: {
        status: "ensure_failed",
        step_id: "execute",
        retries_remaining: 1,
        violations: ["require='all' not satisfied: 0 completed, 3 failed"],
      },
    });
    expect((await stored(s.store, id)).parallel_tasks.size).toBe(0);
    fail = false;
    expect((await s.api.parallelStart(args(id))).status).toBe("started");
    await s.api.parallelSettled();
    expect(plain(await s.api.parallelPoll(args(id)))).toMatchObject({
      outcome: { status: "execute_step", step_id: "last" },
    });
  });

  it("max_concurrent bounds the running tasks; depends_on orders them and cancels dependants of a failure", async () => {
    const runner = new FakeRunner((t) =>
      t === "b" ? { ok: false, error: "no" } : { ok: true, result: "{}" },
    );
    const s = engine(runner);
    const tasks = `{"tasks": [{"id": "a"}, {"id": "b"}, {"id": "c", "depends_on": ["a"]}, {"id": "d", "depends_on": ["b"]}, {"id": "e"}]}`;
    const id = await atParallel(s, spec("        max_concurrent: 2\n        require: any\n"), tasks);
    await s.api.parallelStart(args(id));
    await s.api.parallelSettled();
    expect(runner.maxActive).toBe(2);
    expect(runner.order.indexOf("start c")).toBeGreaterThan(runner.order.indexOf("end a"));
    expect(runner.requests.map((r) => r.taskId)).not.toContain("d");
    const poll = await s.api.parallelPoll(args(id));
    expect(plain(poll)).toMatchObject({
      summary: { complete: 3, failed: 1, cancelled: 1 },
      tasks: { d: { state: "cancelled", error: "upstream task 'b' did not complete (state='failed')" } },
      outcome: { status: "execute_step", step_id: "last" },
    });
  });

  it("a runner that rejects fails its task with the message; require any still advances", async () => {
    const runner = new FakeRunner((t) => (t === "t1" ? "throw" : { ok: true, result: "{}" }));
    const s = engine(runner);
    const id = await atParallel(s, spec("        require: any\n"));
    await s.api.parallelStart(args(id));
    await s.api.parallelSettled();
    expect(plain(await s.api.parallelPoll(args(id)))).toMatchObject({
      tasks: { t1: { state: "failed", error: "runner crashed" }, t2: { state: "complete" } },
      outcome: { status: "execute_step", step_id: "last" },
    });
  });

  it("a task past task_timeout is interrupted and fails with `timeout after <n>s`", async () => {
    const runner = new FakeRunner((t) => (t === "t2" ? "hang" : { ok: true, result: "{}" }));
    const s = engine(runner);
    const id = await atParallel(s, spec("        task_timeout: 5\n        require: 1\n"));
    await s.api.parallelStart(args(id));
    // Turns of the event loop (no time passes) until both tasks have their timeout set.
    for (let i = 0; i < 10_000 && s.timers.length < 2; i++) await new Promise((r) => setImmediate(r));
    s.timers[1]?.();
    await s.api.parallelSettled();
    expect(plain(await s.api.parallelPoll(args(id)))).toMatchObject({
      tasks: { t1: { state: "complete" }, t2: { state: "failed", error: "timeout after 5s" } },
      outcome: { status: "execute_step" },
    });
  });

  it("per-task certificates of Claude agents fail a string result (B8); codex is not checked", async () => {
    const runner = new FakeRunner(() => ({ ok: true, result: `"plain text answer"` }));
    for (const [agent, state] of [
      ["claude", "failed"],
      ["codex", "complete"],
    ]) {
      const s = engine(runner);
      const id = await atParallel(
        s,
        spec(
          `        agent: ${agent}\n        require: any\n        task_reasoning_template: {require_citations: false}\n`,
        ),
      );
      await s.api.parallelStart(args(id));
      await s.api.parallelSettled();
      const poll = await s.api.parallelPoll(args(id));
      expect(plain(poll)).toMatchObject({ tasks: { t1: { state } } });
      if (state === "failed") {
        expect(plain(poll)).toMatchObject({
          tasks: {
            t1: {
              error: "certificate validation failed",
              cert_violations: [
                "certificate missing section: Premises",
                "certificate missing section: Trace",
                "certificate missing section: Conclusion",
              ],
            },
          },
        });
      }
    }
  });

  it("defer_advance: poll waits for the consumer; advance with conflict fails the step, then clean advances", async () => {
    const runner = new FakeRunner(() => ({ ok: true, result: "{}" }));
    const s = engine(runner);
    const id = await atParallel(s, spec("        defer_advance: true\n"));
    expect(plain(await s.api.parallelAdvance({ ...args(id), merge_status: "clean" }))).toMatchObject({
      error_type: "step_not_dispatched",
    });
    await s.api.parallelStart(args(id));
    await s.api.parallelSettled();
    const poll = await s.api.parallelPoll(args(id));
    expect(plain(poll)).toMatchObject({
      can_advance: true,
      outcome: { status: "awaiting_consumer_advance", aggregate: { outcome: "complete" } },
    });
    expect((await stored(s.store, id)).current_idx).toBe(1);
    const conflict = await s.api.parallelAdvance({ ...args(id), merge_status: "conflict" });
    expect(plain(conflict)).toMatchObject({
      status: "ensure_failed",
      violations: ["merge conflict: merge_status='conflict'"],
    });
    await s.api.parallelStart(args(id));
    await s.api.parallelSettled();
    const clean: Response = await s.api.parallelAdvance({ ...args(id), merge_status: "clean" });
    expect(plain(clean)).toMatchObject({ status: "execute_step", step_id: "last" });
    expect(plain(await s.api.parallelAdvance({ ...args(id), merge_status: "clean" }))).toEqual({
      status: "already_advanced",
      step_id: "execute",
    });
  });

  it("a restart keeps the settled entries: poll on a new engine advances from the store", async () => {
    const runner = new FakeRunner(() => ({ ok: true, result: `{"n": 1}` }));
    const s = engine(runner);
    const id = await atParallel(s);
    await s.api.parallelStart(args(id));
    await s.api.parallelSettled();
    await s.api.forgetAll();
    const resumed = await s.api.resume({ flow_id: id });
    expect(resumed.status).toBe("parallel_dispatch");
    expect((await stored(s.store, id)).parallel_tasks.size).toBe(2); // resume keeps the entries
    expect(plain(await s.api.parallelPoll(args(id)))).toMatchObject({
      outcome: { status: "execute_step", step_id: "last" },
    });
  });
});
