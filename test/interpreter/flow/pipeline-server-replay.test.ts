// The nine pipelines reference 0.2.69's server-side executor ran with a scripted agent
// (test/conformance/recorded/v0269-pipeline-server-runs.json) run again through OUR server path —
// stratum_parallel_start, the executor over an in-memory runner answering with the same rules, then
// stratum_parallel_poll — comparing every task's final state, result and error, and the prompts sent.
// Where we differ on purpose the difference is listed below with its reason.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine } from "../../../interpreter/engine/create-api";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { fromJsonValue } from "../../../stdlib/values/json";
import { CONFORMANCE_DIR } from "../../support/shared";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { planOk, result } from "./api-fixtures";

interface TaskEnd {
  readonly state: string;
  readonly result: unknown;
  readonly error: string | null;
}

interface Run {
  readonly name: string;
  readonly spec: string;
  readonly source: unknown[];
  readonly agent_rules: readonly [string, { readonly result?: unknown; readonly raise?: string }][];
  readonly tasks: Readonly<Record<string, TaskEnd>>;
  readonly prompts: readonly string[];
}

const RUNS: readonly Run[] = (
  JSON.parse(readFileSync(resolve(CONFORMANCE_DIR, "v0269-pipeline-server-runs.json"), "utf8")) as {
    runs: Run[];
  }
).runs;

/**
 * Deliberate differences (docs/reference/divergences.md DIV-PARALLEL-TEMPLATE): a placeholder that
 * names nothing (`{lang}` on a scalar element) stays as written and the others are rendered, where
 * the reference sends the whole template unrendered. Keyed by run: the reference's prompt → ours.
 */
const PROMPT_DIVERGENCES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ["three_stages_threading", new Map([["extract {item} ({lang})", "extract b.md ({lang})"]])],
]);

/**
 * Specs our checker refuses where the reference fails at run time (docs/reference/language.md §6.9:
 * `prev['x']` indexes the JSON text by a string, EXPR-TYPE). The run is replayed with a predicate
 * that passes the checker and raises at run time in the same way (a KeyError), so what is compared
 * is still a `when` that raises and runs its stage.
 */
const SPEC_CHANGES: ReadonlyMap<string, readonly [string, string]> = new Map([
  ["predicates_that_raise", [`when: "prev['x'] == 1"`, `when: "prev_raw['y'] == 1"`]],
]);

/** The recording's scripted agent: the first rule whose text starts the prompt; else `{"ok": true}`. */
class ScriptedRunner {
  readonly prompts: string[] = [];
  constructor(private readonly rules: Run["agent_rules"]) {}

  async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
    this.prompts.push(request.prompt);
    await new Promise((r) => setImmediate(r));
    const rule = this.rules.find(([prefix]) => request.prompt.startsWith(prefix));
    const answer = rule?.[1] ?? { result: { ok: true } };
    if (answer.raise !== undefined) return { ok: false, error: answer.raise };
    return { ok: true, result: fromJsonValue(answer.result) };
  }
}

async function replay(run: Run) {
  const runner = new ScriptedRunner(run.agent_rules);
  const api = createEngine({
    store: new MemoryStore(),
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: "/work/project",
    files: () => null,
    workspace: nodeWorkspace,
    verifyEdits: true,
    parallelRunner: runner,
    parallelTimer: () => () => undefined,
  });
  const change = SPEC_CHANGES.get(run.name);
  const spec = change === undefined ? run.spec : run.spec.replace(change[0], change[1]);
  expect(spec.includes(change?.[1] ?? "")).toBe(true);
  const plan = await planOk(api, spec);
  const flow_id = String(plan.flow_id);
  const dispatched = await api.stepDone({
    flow_id,
    step_id: "seed",
    result: result(JSON.stringify({ files: run.source })),
  });
  expect(dispatched.status).toBe("parallel_dispatch");
  const started = wireToPlain(await api.parallelStart({ flow_id, step_id: "pipe" }));
  expect(started).toMatchObject({ status: "started" });
  await api.parallelSettled();
  const poll = wireToPlain(await api.parallelPoll({ flow_id, step_id: "pipe" })) as {
    tasks: Record<string, TaskEnd>;
    summary: Record<string, number>;
    outcome: Record<string, unknown> | null;
  };
  return { runner, poll };
}

describe("pipelines run server-side as 0.2.69's executor runs them", () => {
  it("an element that exited early has the exiting stage's output as its result", async () => {
    const run = RUNS.find((r) => r.name === "exit_when_early");
    if (run === undefined) throw new Error("no exit_when_early run");
    const { poll } = await replay(run);
    expect(poll.outcome).toMatchObject({
      output: {
        items: [
          {
            item: "clean",
            status: "complete",
            result: { clean: true },
            stages: [{ clean: true }, { clean: true }],
          },
          { item: "dirty", status: "complete", result: { ok: true } },
        ],
      },
    });
  });

  it("reads the nine recorded runs", () => {
    expect(RUNS.map((r) => r.name)).toHaveLength(9);
  });

  it.each(RUNS.map((r) => [r.name, r] as const))("%s", async (_name, run) => {
    const { runner, poll } = await replay(run);
    const ends = Object.fromEntries(
      Object.entries(poll.tasks)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, t]) => [id, { state: t.state, result: t.result, error: t.error }]),
    );
    expect(ends).toEqual(run.tasks);
    const diverging = PROMPT_DIVERGENCES.get(run.name) ?? new Map<string, string>();
    const expected = run.prompts.map((p) => diverging.get(p) ?? p).sort();
    expect([...runner.prompts].sort()).toEqual(expected);
    // Skipped stages are terminal and counted: the summary adds up to the task count.
    const counted = Object.values(poll.summary).reduce((a, b) => a + b, 0);
    expect(counted).toBe(Object.keys(run.tasks).length);
    expect(poll.summary.skipped).toBe(Object.values(run.tasks).filter((t) => t.state === "skipped").length);
    // A skipped stage never reached the agent.
    expect(runner.prompts).toHaveLength(
      Object.values(run.tasks).filter((t) => t.state !== "skipped" && t.state !== "cancelled").length,
    );
    // Poll settled the step: `require` over elements decides (only the failed join fails `all`).
    expect(poll.outcome?.status).toBe(
      run.name === "fanout_lane_fails_require_all" ? "ensure_failed" : "complete",
    );
  });
});
