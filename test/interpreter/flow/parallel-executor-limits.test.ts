// The server-side executor treats what a runner reports as untrusted data (docs/reference/runtime.md §23.6):
// a result past the limits of a tool argument fails its task with the reason; an entry the store
// refuses fails the task with the store's reason (logged once), and when even that cannot be
// written the executor stops and logs it; a conflict with another process's commit is tried
// again; the engine's cap on agents clamps `max_concurrent` and a quorum's members. Every case
// ends with the executor settled and the slot of the task freed (the next task runs).
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine, type EngineApi } from "../../../interpreter/engine/create-api";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import {
  type ChangeToken,
  StaleStateError,
  type StoreBatch,
  StoreUnwritableError,
} from "../../../interpreter/store/store";
import { parseJson } from "../../../stdlib/values/json";
import type { PyValue } from "../../../stdlib/values/value";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { plain, planOk } from "./api-fixtures";

type Plain = Record<string, unknown>;

/**
 * A MemoryStore whose commits numbered in `failAt` (from 1) throw `error()`. A flow's commits come
 * in a fixed order: plan 1, start 2, then the executor's entries (with max_concurrent 1: the first
 * task's running entry 3, its end 4, the second task's running entry 5, …).
 */
class FailingStore extends MemoryStore {
  failAt: ReadonlySet<number> = new Set();
  error: () => Error = () => new Error("boom");
  private commits = 0;

  override async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    this.commits += 1;
    if (this.failAt.has(this.commits)) throw this.error();
    return super.commit(batch);
  }
}

/** A runner whose tasks answer `results[id]` (default `{}`), counting how many run at once. */
class Runner {
  active = 0;
  maxActive = 0;
  readonly started: string[] = [];

  constructor(private readonly results: Record<string, PyValue> = {}) {}

  async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
    this.started.push(request.taskId);
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      await new Promise((r) => setImmediate(r)); // the answer comes later, but no time passes
      return { ok: true, result: this.results[request.taskId] ?? parseJson("{}") };
    } finally {
      this.active -= 1;
    }
  }
}

interface Setup {
  readonly api: EngineApi;
  readonly store: FailingStore;
  readonly logged: string[];
}

function engine(runner: Runner, maxAgents?: number): Setup {
  const store = new FailingStore();
  const logged: string[] = [];
  const api = createEngine({
    store,
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: "/work/project",
    files: () => null,
    workspace: nodeWorkspace,
    parallelRunner: runner,
    logError: (message) => logged.push(message),
    ...(maxAgents === undefined ? {} : { parallelMaxAgents: maxAgents }),
  });
  return { api, store, logged };
}

/** A parallel step running one task per id (the flow's input), then an inline step. */
interface Spec {
  readonly text: string;
  readonly inputs: string;
}

function spec(options: string, taskIds: readonly string[]): Spec {
  const text = `version: "0.3"
flows:
  main:
    input:
      tasks: {type: array}
    steps:
      - id: execute
        type: parallel_dispatch
        source: "$.input.tasks"
        intent_template: "Do {task.id}"
        isolation: none
${options
  .trim()
  .split("\n")
  .map((line) => `        ${line.trim()}`)
  .join("\n")}
      - id: last
        intent: "Last"
        depends_on: [execute]
`;
  return { text, inputs: JSON.stringify({ tasks: taskIds.map((id) => ({ id })) }) };
}

/** Plans, starts `execute`, waits for the executor, then polls once. */
async function run(s: Setup, { text, inputs }: Spec): Promise<Plain> {
  const flowId = String((await planOk(s.api, text, "main", inputs)).flow_id);
  const start = plain(await s.api.parallelStart({ flow_id: flowId, step_id: "execute" }));
  expect(start).toMatchObject({ status: "started" });
  await s.api.parallelSettled();
  return plain(await s.api.parallelPoll({ flow_id: flowId, step_id: "execute" })) as Plain;
}

const task = (poll: Plain, id: string) => (poll.tasks as Record<string, Plain>)[id] as Plain;

/** `[[…]]` `depth` levels deep, built without recursion. */
function nested(depth: number): PyValue {
  let value: PyValue = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe("results past the limits of a tool argument", () => {
  it("a result 2,000 levels deep fails its task with the reason; the next task starts and the flow advances", async () => {
    const s = engine(new Runner({ deep: nested(2_000) }));
    const poll = await run(s, spec("max_concurrent: 1\nrequire: any", ["deep", "next"]));
    expect(task(poll, "deep")).toMatchObject({
      state: "failed",
      result: null,
      error: "result: nested 2,000 levels deep; the limit is 512",
    });
    expect(task(poll, "next")).toMatchObject({ state: "complete", result: {} });
    expect(poll.outcome).toMatchObject({ status: "execute_step", step_id: "last" });
    expect(s.logged).toEqual([]);
  });

  it("a result at exactly 512 levels completes; 513 fails", async () => {
    const s = engine(new Runner({ at: nested(512), over: nested(513) }));
    const poll = await run(s, spec("require: any", ["at", "over"]));
    expect(task(poll, "at")).toMatchObject({ state: "complete", error: null });
    expect(task(poll, "over")).toMatchObject({
      state: "failed",
      error: "result: nested 513 levels deep; the limit is 512",
    });
  });

  it("a result of 1,000,002 values fails its task", async () => {
    const s = engine(new Runner({ many: new Array<PyValue>(1_000_001).fill(0) }));
    const poll = await run(s, spec("require: any", ["many", "next"]));
    expect(task(poll, "many")).toMatchObject({
      state: "failed",
      result: null,
      error: "result: 1,000,002 values; the limit is 1,000,000",
    });
    expect(task(poll, "next")).toMatchObject({ state: "complete" });
  });
});

/** The first flow id of SequentialIds. */
const FLOW = "00000000-0000-4000-8000-000000000001";
const ENOSPC = () => new StoreUnwritableError("/home/flows/F.json", "ENOSPC", "no space left on device");
const REASON = "cannot write the flow store at /home/flows/F.json: no space left on device (ENOSPC)";

describe("an entry the store refuses", () => {
  it("fails the task with the store's reason, logs one line, and the next task runs", async () => {
    const runner = new Runner();
    const s = engine(runner);
    s.store.error = ENOSPC;
    s.store.failAt = new Set([4]);
    const poll = await run(s, spec("max_concurrent: 1\nrequire: any", ["big", "next"]));
    expect(task(poll, "big")).toMatchObject({
      state: "failed",
      result: null,
      error: `could not store the task's entry: ${REASON}`,
    });
    expect(task(poll, "next")).toMatchObject({ state: "complete" });
    expect(runner.started).toEqual(["big", "next"]);
    expect(poll.outcome).toMatchObject({ status: "execute_step", step_id: "last" });
    expect(s.logged).toEqual([
      `parallel task 'big' of step 'execute' in flow ${FLOW}: the store refused its complete entry: ${REASON}`,
    ]);
  });

  it("a refused running entry fails the task without running its agent", async () => {
    const runner = new Runner();
    const s = engine(runner);
    s.store.error = ENOSPC;
    s.store.failAt = new Set([3]);
    const poll = await run(s, spec("max_concurrent: 1\nrequire: any", ["a", "b"]));
    expect(task(poll, "a")).toMatchObject({
      state: "failed",
      started_at: null,
      error: `could not store the task's entry: ${REASON}`,
    });
    expect(task(poll, "b")).toMatchObject({ state: "complete" });
    expect(runner.started).toEqual(["b"]);
    expect(s.logged).toEqual([
      `parallel task 'a' of step 'execute' in flow ${FLOW}: the store refused its running entry: ${REASON}`,
    ]);
  });

  it("when even the failed entry is refused, the executor stops and says so; poll still answers", async () => {
    const runner = new Runner();
    const s = engine(runner);
    s.store.error = ENOSPC;
    s.store.failAt = new Set([4, 5]);
    const poll = await run(s, spec("max_concurrent: 1", ["a", "b"]));
    expect(runner.started).toEqual(["a"]);
    expect(s.logged).toEqual([
      `parallel task 'a' of step 'execute' in flow ${FLOW}: the store refused its complete entry: ${REASON}`,
      `parallel task 'a' of step 'execute' in flow ${FLOW}: the store refused its failed entry too: ${REASON}`,
    ]);
    expect(poll.summary).toMatchObject({ running: 1, pending: 1 });
  });

  it("a conflict with another process's commit is tried again", async () => {
    const runner = new Runner();
    const s = engine(runner);
    s.store.error = () => new StaleStateError("FLOW_1", 9, 3);
    s.store.failAt = new Set([4, 5]);
    const poll = await run(s, spec("", ["a"]));
    expect(task(poll, "a")).toMatchObject({ state: "complete", error: null });
    expect(s.logged).toEqual([]);
  });
});

describe("an error in the executor itself", () => {
  it("fails the task with the reason and a log line; the next task runs and the flow advances", async () => {
    const runner = new Runner();
    const s = engine(runner);
    const base = runner.runTask.bind(runner);
    // An outcome that throws when the executor reads it: the failure is the executor's own.
    runner.runTask = async (request) => {
      const outcome = await base(request);
      if (request.taskId !== "odd") return outcome;
      return Object.defineProperty({ ok: true }, "result", {
        get() {
          throw new Error("unreadable result");
        },
      }) as ParallelTaskOutcome;
    };
    const poll = await run(s, spec("max_concurrent: 1\nrequire: any", ["odd", "next"]));
    expect(task(poll, "odd")).toMatchObject({ state: "failed", error: "executor error: unreadable result" });
    expect(task(poll, "next")).toMatchObject({ state: "complete" });
    expect(poll.outcome).toMatchObject({ status: "execute_step", step_id: "last" });
    expect(s.logged).toHaveLength(1);
    expect(s.logged[0]).toMatch(
      new RegExp(`^parallel task 'odd' of step 'execute' in flow ${FLOW}: Error: unreadable result\n`),
    );
  });
});

describe("the cap on agents at once", () => {
  it("clamps a step's max_concurrent 60 to the cap of 2", async () => {
    const runner = new Runner();
    const s = engine(runner, 2);
    const ids = ["t1", "t2", "t3", "t4", "t5", "t6"];
    const poll = await run(s, spec("max_concurrent: 60", ids));
    expect(poll.summary).toMatchObject({ complete: 6 });
    expect(runner.maxActive).toBe(2);
  });

  it("a max_concurrent below the cap stays", async () => {
    const runner = new Runner();
    const s = engine(runner, 4);
    await run(s, spec("max_concurrent: 1", ["t1", "t2", "t3"]));
    expect(runner.maxActive).toBe(1);
  });

  it("without a cap the spec's value holds", async () => {
    const runner = new Runner();
    const s = engine(runner);
    await run(s, spec("max_concurrent: 60", ["t1", "t2", "t3", "t4"]));
    expect(runner.maxActive).toBe(4);
  });

  it("a quorum's members, which all run at once, are clamped too", async () => {
    const runner = new Runner({
      r1: parseJson(`{"severity": "high"}`),
      r2: parseJson(`{"severity": "high"}`),
      r3: parseJson(`{"severity": "high"}`),
    });
    const s = engine(runner, 2);
    const quorum = `version: "0.3"
contracts:
  Classification:
    severity: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: classify
        type: quorum
        agent: claude
        intent: "Classify the ticket"
        runs: 3
        agree_on: "result.severity"
        output_contract: Classification
`;
    const flowId = String((await planOk(s.api, quorum)).flow_id);
    expect(plain(await s.api.parallelStart({ flow_id: flowId, step_id: "classify" }))).toMatchObject({
      status: "started",
    });
    await s.api.parallelSettled();
    expect(runner.started).toEqual(["r1", "r2", "r3"]);
    expect(runner.maxActive).toBe(2);
  });
});
