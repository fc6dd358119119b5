// pre_merge_verify on the server path through the in-process engine, over a fake runner that plays
// the host's part (it runs no command: it says which command failed): which commands the runner is
// given (resolved at start as the reference resolves them), that the gate runs only on a result
// the executor accepts, the failed entry with its `gate_failed` record, and the record in the
// step's `bounced_tasks` and violations (poll's advance, and advance after the consumer's own
// records).
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine, type EngineApi } from "../../../interpreter/engine/create-api";
import type {
  GateBounce,
  ParallelTaskOutcome,
  ParallelTaskRequest,
} from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { parseJson } from "../../../stdlib/values/json";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { plain, planOk, result, stored } from "./api-fixtures";
import { text } from "./fixtures";

/** What the fake host does with a task: its agent's result, and the failing command, if any. */
interface Play {
  readonly result: string;
  readonly bounce?: GateBounce;
}

class GateRunner {
  readonly requests: ParallelTaskRequest[] = [];
  /** Per task: whether the executor accepted the result for the gate (absent: no gate asked). */
  readonly accepted = new Map<string, boolean>();

  constructor(private readonly play: (taskId: string) => Play) {}

  async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
    this.requests.push(request);
    await new Promise((r) => setImmediate(r));
    const p = this.play(request.taskId);
    const value = parseJson(p.result);
    let gateBounce: GateBounce | null = null;
    if (request.gate !== undefined) {
      const accepts = request.gate.accepts(value);
      this.accepted.set(request.taskId, accepts);
      if (accepts) gateBounce = p.bounce ?? null;
    }
    return { ok: true, result: value, tokens: 3, gateBounce, diff: gateBounce === null ? "d" : null };
  }
}

interface Timer {
  readonly fn: () => void;
  cancelled: boolean;
}

function engine(runner: GateRunner): { api: EngineApi; store: MemoryStore; timers: Timer[] } {
  const store = new MemoryStore();
  const timers: Timer[] = [];
  const api = createEngine({
    store,
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: "/work/project",
    files: () => null,
    workspace: nodeWorkspace,
    verifyEdits: true,
    parallelRunner: runner,
    parallelTimer: (_ms, fn) => {
      const t: Timer = { fn, cancelled: false };
      timers.push(t);
      return () => {
        t.cancelled = true;
      };
    },
  });
  return { api, store, timers };
}

function spec(keys: string, input = "tasks: {type: array}"): string {
  return `version: "0.3"
flows:
  main:
    input:
      ${input}
    steps:
      - id: execute
        type: parallel_dispatch
        source: "$.input.tasks"
        intent_template: "Do {task.id}"
${keys}      - id: last
        intent: "Last"
        depends_on: [execute]
`;
}

const TWO = `{"tasks": [{"id": "t1"}, {"id": "t2"}]}`;
const args = (flow_id: string) => ({ flow_id, step_id: "execute" });

async function started(api: EngineApi, specText: string, inputs = TWO): Promise<string> {
  const plan = await planOk(api, specText, "main", inputs);
  expect(plan.status).toBe("parallel_dispatch");
  const id = String(plan.flow_id);
  expect((await api.parallelStart(args(id))).status).toBe("started");
  await api.parallelSettled();
  return id;
}

const LINT_FAILED: GateBounce = {
  command: "pnpm lint",
  exitCode: 1,
  files: ["a.txt", "b.txt"],
  excerpt: "a.txt: bad",
};

describe("which commands the runner is given", () => {
  const cases: readonly (readonly [string, string, string, readonly string[] | undefined])[] = [
    [
      "a list, blank commands dropped",
      `        pre_merge_verify: ["pnpm lint", "  ", "pnpm build"]\n`,
      TWO,
      ["pnpm lint", "pnpm build"],
    ],
    ["one string: one command", `        pre_merge_verify: "npm test"\n`, TWO, ["npm test"]],
    [
      "a $ reference to a list of the flow's input",
      `        pre_merge_verify: "$.input.gate"\n`,
      `{"tasks": [{"id": "t1"}], "gate": ["make check", 3, ""]}`,
      ["make check"],
    ],
    [
      "a $ reference to a string: no gate (only a list counts)",
      `        pre_merge_verify: "$.input.gate"\n`,
      `{"tasks": [{"id": "t1"}], "gate": "make check"}`,
      undefined,
    ],
    [
      "a $ reference that does not resolve: no gate",
      `        pre_merge_verify: "$.input.nothing"\n`,
      TWO,
      undefined,
    ],
    [
      "isolation none: no gate",
      `        isolation: none\n        pre_merge_verify: ["npm test"]\n`,
      TWO,
      undefined,
    ],
    ["no key: no gate", "", TWO, undefined],
  ];
  it.each(cases)("%s", async (_, keys, inputs, expected) => {
    const runner = new GateRunner(() => ({ result: "{}" }));
    const { api } = engine(runner);
    const input = inputs.includes('"gate"') ? "tasks: {type: array}\n      gate: {type: any}" : undefined;
    await started(api, spec(keys, input), inputs);
    expect(runner.requests.length).toBeGreaterThan(0);
    for (const r of runner.requests) expect(r.gate?.commands).toEqual(expected);
  });
});

describe("a failing command", () => {
  it("fails its task with a gate_failed record in the entry, and poll's advance carries it in bounced_tasks", async () => {
    // One at a time, the second failing, so that the first is not cancelled by require: all.
    const runner = new GateRunner((t) =>
      t === "t2" ? { result: `{"ok": 1}`, bounce: LINT_FAILED } : { result: "{}" },
    );
    const { api, store } = engine(runner);
    const keys = `        max_concurrent: 1\n        capture_diff: true\n        pre_merge_verify: ["pnpm lint"]\n`;
    const id = await started(api, spec(keys));
    const entries = (await stored(store, id)).parallel_tasks;
    expect(text(entries.get("t2") ?? null)).toBe(
      `{"task_id": "t2", "state": "failed", "started_at": 1700000000.0, "finished_at": 1700000000.0, "result": {"ok": 1}, "error": "pre_merge_verify failed: pnpm lint", "cert_violations": null, "worktree_path": null, "diff": null, "diff_error": null, "gate_bounce": {"reason": "gate_failed", "command": "pnpm lint", "exit_code": 1, "files": ["a.txt", "b.txt"], "excerpt": "a.txt: bad", "task_id": "t2"}, "tokens": 3, "elapsed_s": 0.0, "dollars_recorded": 0.0}`,
    );
    // A task that passed has no gate_bounce key at all.
    expect(text(entries.get("t1") ?? null)).not.toContain("gate_bounce");
    expect(text(entries.get("t1") ?? null)).toContain(`"state": "complete"`);
    const poll = plain(await api.parallelPoll(args(id))) as Record<string, unknown>;
    expect(poll).toMatchObject({
      summary: { complete: 1, failed: 1 },
      require_satisfied: false,
      can_advance: false,
      outcome: {
        status: "ensure_failed",
        step_id: "execute",
        bounced_tasks: [
          {
            task_id: "t2",
            reason: "gate_failed",
            command: "pnpm lint",
            exit_code: 1,
            files: ["a.txt", "b.txt"],
            excerpt: "a.txt: bad",
          },
        ],
      },
    });
    const violations = (poll.outcome as { violations: string[] }).violations;
    expect(violations).toContain("task 't2' failed pre-merge gate `pnpm lint` (exit 1) — diff NOT merged");
  });

  it("a timed-out command's record has exit_code null, worded (exit None)", async () => {
    const timedOut: GateBounce = { command: "sleep 9", exitCode: null, files: [], excerpt: "timed out" };
    const runner = new GateRunner(() => ({ result: "{}", bounce: timedOut }));
    const { api } = engine(runner);
    const id = await started(api, spec(`        require: any\n        pre_merge_verify: "sleep 9"\n`));
    const poll = plain(await api.parallelPoll(args(id))) as {
      outcome: { violations: string[]; bounced_tasks: unknown[] };
    };
    expect(poll.outcome.bounced_tasks).toHaveLength(2);
    expect(poll.outcome.bounced_tasks[0]).toMatchObject({ exit_code: null, task_id: "t1" });
    expect(poll.outcome.violations).toContain(
      "task 't2' failed pre-merge gate `sleep 9` (exit None) — diff NOT merged",
    );
  });

  it("with defer_advance, advance puts the gate records before the consumer's", async () => {
    const runner = new GateRunner((t) =>
      t === "t1" ? { result: "{}", bounce: LINT_FAILED } : { result: "{}" },
    );
    const { api } = engine(runner);
    const id = await started(
      api,
      spec(`        defer_advance: true\n        pre_merge_verify: ["pnpm lint"]\n`),
    );
    expect(plain(await api.parallelPoll(args(id)))).toMatchObject({
      outcome: { status: "awaiting_consumer_advance" },
    });
    const conflict = `{"status": "conflict", "bounced_tasks": [{"task_id": "t2", "reason": "merge_conflict", "files": ["x"]}]}`;
    const r = plain(await api.parallelAdvance({ ...args(id), merge_status: result(conflict) as never })) as {
      bounced_tasks: { task_id: string; reason: string }[];
      violations: string[];
    };
    expect(r.bounced_tasks.map((b) => [b.task_id, b.reason])).toEqual([
      ["t1", "gate_failed"],
      ["t2", "merge_conflict"],
    ]);
    expect(r.violations).toEqual(
      expect.arrayContaining([
        "task 't1' failed pre-merge gate `pnpm lint` (exit 1) — diff NOT merged",
        "task 't2' merge conflict on x",
      ]),
    );
  });
});

describe("when the gate runs", () => {
  it("all commands passing: the task completes and the flow moves on", async () => {
    const runner = new GateRunner(() => ({ result: "{}" }));
    const { api } = engine(runner);
    const id = await started(api, spec(`        pre_merge_verify: ["npm test"]\n`));
    expect([...runner.accepted.values()]).toEqual([true, true]);
    expect(plain(await api.parallelPoll(args(id)))).toMatchObject({
      summary: { complete: 2 },
      outcome: { status: "execute_step", step_id: "last" },
    });
  });

  it("not on a result that fails the task certificate: the task fails its certificate, not the gate", async () => {
    const runner = new GateRunner(() => ({ result: `{"summary": "x"}`, bounce: LINT_FAILED }));
    const { api, store } = engine(runner);
    const keys = `        agent: claude\n        task_reasoning_template:\n          require_citations: false\n          sections:\n            - {id: premises, label: "P", description: "p"}\n        pre_merge_verify: ["pnpm lint"]\n`;
    const id = await started(api, spec(keys));
    expect([...runner.accepted.values()]).toEqual([false, false]);
    const entry = plain({ e: (await stored(store, id)).parallel_tasks.get("t1") ?? null }) as {
      e: Record<string, unknown>;
    };
    expect(entry.e).toMatchObject({ state: "failed", error: "certificate validation failed" });
    expect(entry.e).not.toHaveProperty("gate_bounce");
  });

  it("the task's time limit ends when the gate begins (each command has its own)", async () => {
    const runner = new GateRunner(() => ({ result: "{}" }));
    const { api, timers } = engine(runner);
    await started(api, spec(`        pre_merge_verify: ["npm test"]\n`));
    expect(timers).toHaveLength(2);
    expect(timers.every((t) => t.cancelled)).toBe(true);
  });
});

describe("the parallel_dispatch payload", () => {
  it("carries the resolved commands after retries_remaining, and no key when there are none", async () => {
    const { api } = engine(new GateRunner(() => ({ result: "{}" })));
    const withGate = await planOk(
      api,
      spec(`        pre_merge_verify: "$.input.gate"\n`, "tasks: {type: array}\n      gate: {type: any}"),
      "main",
      `{"tasks": [{"id": "t1"}], "gate": ["make check", " "]}`,
    );
    expect(Object.keys(withGate).slice(-2)).toEqual(["retries_remaining", "pre_merge_verify"]);
    expect(plain(withGate)).toMatchObject({ pre_merge_verify: ["make check"] });
    const dangling = await planOk(api, spec(`        pre_merge_verify: "$.input.nothing"\n`), "main", TWO);
    expect(Object.keys(dangling)).not.toContain("pre_merge_verify");
    expect(Object.keys(await planOk(api, spec(""), "main", TWO))).not.toContain("pre_merge_verify");
  });
});
