// Random small pipelines run server-side (fast-check): stages with and without `when` / `exit_when`,
// sometimes a fanout region, random agent replies (results that steer the predicates, split lists
// of any length or no list at all, failures). Whatever happens: every element ends complete or
// failed, a skipped stage never reached the agent (no start time, no dispatch), and poll's summary
// counts every task exactly once.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine } from "../../../interpreter/engine/create-api";
import { budgetWire } from "../../../interpreter/flow/audit";
import { evaluatePipelineResults } from "../../../interpreter/flow/kinds/pipeline/evaluate";
import { taskResultsOf } from "../../../interpreter/flow/kinds/pipeline/server";
import { unfoldPipeline } from "../../../interpreter/flow/kinds/pipeline/tasks";
import { CLEAN_MERGE } from "../../../interpreter/flow/merge-report";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { fromJsonValue } from "../../../stdlib/values/json";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { plain, planOk, stored } from "./api-fixtures";

type Reply = { readonly result: unknown } | { readonly fail: string };

interface Case {
  readonly elements: readonly number[];
  readonly require: string;
  readonly fanout: { readonly max: number; readonly lanes: number } | null;
  readonly stages: readonly { readonly when: boolean; readonly exitWhen: boolean }[];
  readonly replies: readonly Reply[];
}

const reply: fc.Arbitrary<Reply> = fc.oneof(
  fc.record({ result: fc.record({ go: fc.boolean(), stop: fc.boolean() }) }),
  fc.record({ result: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }) }),
  fc.record({ result: fc.constantFrom("[1, 2]", "not json", "{}") }),
  fc.record({ fail: fc.constant("agent failed") }),
);

const caseArb: fc.Arbitrary<Case> = fc.record({
  elements: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }),
  require: fc.constantFrom("all", "any", "1", "2"),
  fanout: fc.option(
    fc.record({ max: fc.integer({ min: 1, max: 3 }), lanes: fc.integer({ min: 1, max: 2 }) }),
  ),
  stages: fc.array(fc.record({ when: fc.boolean(), exitWhen: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  replies: fc.array(reply, { minLength: 1, maxLength: 6 }),
});

/** Plain stages with their predicates; a fanout region (split, lanes, join) first when asked. */
function specOf(c: Case): string {
  const stages: string[] = [];
  if (c.fanout !== null) {
    stages.push(`- {intent_template: "split {item}", fanout: {max: ${c.fanout.max}, require: any}}`);
    for (let k = 0; k < c.fanout.lanes; k++) stages.push(`- {intent_template: "lane${k} {item} {prev}"}`);
    stages.push(`- {intent_template: "join {prevs}", join: true}`);
  }
  c.stages.forEach((s, i) => {
    const j = stages.length;
    const keys = [`intent_template: "stage${i} {item} {prev}"`];
    if (s.when) keys.push(j === 0 ? `when: "item > 1"` : `when: "prev_raw == None or 'go' not in prev"`);
    if (s.exitWhen) keys.push(`exit_when: "result.startswith('{') and 'true' in result"`);
    stages.push(`- {${keys.join(", ")}}`);
  });
  return `version: "0.3"
flows:
  main:
    input: {elements: {type: array}}
    budget: {max_agent_dispatches: 1000}
    steps:
      - id: pipe
        type: pipeline
        source: "$.input.elements"
        isolation: none
        max_concurrent: 2
        require: ${c.require}
        stages:
${stages.map((s) => `          ${s}`).join("\n")}
`;
}

/** The same reply for the same task in every run: chosen by the task id. */
function replyFor(c: Case, taskId: string): Reply {
  let h = 0;
  for (const ch of taskId) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003;
  return c.replies[h % c.replies.length] as Reply;
}

class Runner {
  readonly started: string[] = [];
  constructor(private readonly c: Case) {}
  async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
    this.started.push(request.taskId);
    await new Promise((r) => setImmediate(r));
    const r = replyFor(this.c, request.taskId);
    return "fail" in r ? { ok: false, error: r.fail } : { ok: true, result: fromJsonValue(r.result) };
  }
}

interface Entry {
  readonly state: string;
  readonly started_at: number | null;
}

let skippedSeen = 0;

describe("random pipelines run server-side", () => {
  it("end every element complete or failed, never dispatch a skipped stage, and count every task", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const runner = new Runner(c);
        const store = new MemoryStore();
        const api = createEngine({
          store,
          clock: new ManualClock(),
          ids: new SequentialIds(),
          cwd: "/work/project",
          files: () => null,
          workspace: nodeWorkspace,
          verifyEdits: true,
          parallelRunner: runner,
          parallelTimer: () => () => undefined,
        });
        const plan = await planOk(api, specOf(c), "main", JSON.stringify({ elements: c.elements }));
        const flow_id = String(plan.flow_id);
        expect(wireToPlain(await api.parallelStart({ flow_id, step_id: "pipe" }))).toMatchObject({
          status: "started",
        });
        await api.parallelSettled();
        const poll = wireToPlain(await api.parallelPoll({ flow_id, step_id: "pipe" })) as {
          summary: Record<string, number>;
          tasks: Record<string, Entry>;
          outcome: { output?: { items: { status: string }[] }; status: string } | null;
        };
        const entries = Object.entries(poll.tasks);
        expect(Object.values(poll.summary).reduce((a, b) => a + b, 0)).toBe(entries.length);
        expect([poll.summary.pending, poll.summary.running]).toEqual([0, 0]);
        for (const [id, e] of entries) {
          if (e.state === "skipped") {
            expect(e.started_at).toBeNull();
            expect(runner.started).not.toContain(id);
          }
        }
        skippedSeen += entries.filter(([, e]) => e.state === "skipped").length;
        // The run budget counts one dispatch per agent run, none for a skipped stage.
        const ledger = plain({ b: budgetWire((await stored(store, flow_id)).budget_state) }) as {
          b: { consumed: { dispatches: number } };
        };
        expect(ledger.b.consumed.dispatches).toBe(runner.started.length);
        // Each agent run is one task that started, once.
        expect(new Set(runner.started).size).toBe(runner.started.length);
        expect(runner.started.sort()).toEqual(
          entries
            .filter(([, e]) => e.started_at !== null)
            .map(([id]) => id)
            .sort(),
        );
        // One verdict per element, complete or failed (never incomplete server-side): the judgement
        // poll made, which a failed `require` does not keep as the step's output.
        const step = checkSpec(specOf(c)).ir?.flows.get("main")?.stepById.get("pipe");
        if (step === undefined) throw new Error("no step");
        const stateOf = new Map(entries.map(([id, e]) => [id, fromJsonValue(e)] as const));
        const graph = unfoldPipeline(step, c.elements);
        const judged = evaluatePipelineResults(step, graph, taskResultsOf(stateOf), CLEAN_MERGE);
        const items = (wireToPlain(judged.aggregate) as { items: { status: string }[] }).items;
        expect(items).toHaveLength(c.elements.length);
        for (const item of items) expect(["complete", "failed"]).toContain(item.status);
        if (poll.outcome?.status === "complete")
          expect(poll.outcome.output?.items).toEqual(items.map((i) => expect.objectContaining(i)));
      }),
      { numRuns: 60 },
    );
    // Not vacuous: stages were skipped (by `when`, an early exit or an unfilled lane).
    expect(skippedSeen).toBeGreaterThan(0);
  }, 120_000);
});
