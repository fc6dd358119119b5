// Race steps (stratumc's extension, docs/reference/runtime.md §23.14) through the in-process engine,
// consumer path: the payload, a winner in a partial batch (the others cancelled), race_pending
// across calls, first-received order, a lost race (retry, exhaustion, on_fail), refused reports,
// server-side start refused, the record in judge_outcome and the audit, and a restart mid-race.
import { describe, expect, it } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import type { Response } from "../../../interpreter/wire/wire";
import { harness, plain, planOk, result, stored } from "./api-fixtures";
import { text } from "./fixtures";

interface SpecOptions {
  readonly candidates?: string;
  readonly extra?: string;
  readonly after?: string;
}

function spec(o: SpecOptions = {}): string {
  return `version: "0.3"
contracts:
  Patch:
    tests_pass: {type: boolean}
    diff: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: fix
        type: race
        agent: claude
        intent: "Make the test pass"
        candidates: ${o.candidates ?? "3"}
        output_contract: Patch
        ensure: ["result.tests_pass"]
${o.extra ?? ""}      - id: apply
        intent: "Apply {diff}"
        inputs: {diff: "$.steps.fix.output.diff"}
        depends_on: [fix]
${o.after ?? ""}`;
}

const done = (id: string, pass: boolean, diff = id) =>
  `{"task_id": "${id}", "status": "complete", "result": {"tests_pass": ${pass}, "diff": "${diff}"}}`;
const failed = (id: string, error: string) => `{"task_id": "${id}", "status": "failed", "error": "${error}"}`;

function report(api: StratumApi, flowId: string, entries: string[]): Promise<Response> {
  return api.parallelDone({
    flow_id: flowId,
    step_id: "fix",
    task_results: result(`[${entries.join(", ")}]`),
    merge_status: "clean",
  });
}

async function flow(o: SpecOptions = {}) {
  const h = harness();
  const id = String((await planOk(h.api, spec(o))).flow_id);
  return { h, id };
}

describe("race payload", () => {
  it("is a parallel_dispatch payload with step_mode race, one task per candidate and the candidates", async () => {
    const h = harness();
    const plan = await planOk(
      h.api,
      spec({
        candidates: '\n          - {id: careful}\n          - {id: bold, agent: codex, intent: "Rewrite it"}',
      }),
    );
    expect(text(plan)).toBe(
      `{"status": "parallel_dispatch", "flow_id": "${plan.flow_id}", "step_number": 1, "total_steps": 2, "step_id": "fix", "step_mode": "race", "tasks": [{"id": "careful", "agent": "claude", "intent": "Make the test pass"}, {"id": "bold", "agent": "codex", "intent": "Rewrite it"}], "agent": "claude", "max_concurrent": 2, "isolation": "none", "intent_template": "Make the test pass", "intent": "Make the test pass", "inputs": {}, "output_contract": "Patch", "output_fields": {"tests_pass": "boolean", "diff": "string"}, "ensure": ["result.tests_pass"], "candidates": [{"id": "careful", "agent": "claude", "intent": "Make the test pass"}, {"id": "bold", "agent": "codex", "intent": "Rewrite it"}], "retries_remaining": 1}`,
    );
  });
});

describe("race winner", () => {
  it("the first passing candidate of a partial batch wins; the unreported ones are to be cancelled", async () => {
    const { h, id } = await flow();
    const next = await report(h.api, id, [done("c2", true, "patch-2")]);
    expect(plain(next)).toMatchObject({
      status: "execute_step",
      step_id: "apply",
      inputs: { diff: "patch-2" },
      race: { winner: "c2", cancel: ["c1", "c3"], rejected: [] },
    });
    const state = await stored(h.store, id);
    expect(state.records).toMatchObject([{ step_id: "fix", step_mode: "race", attempts: 1 }]);
    expect(plain((await h.api.audit({ flow_id: id })) as Response)).toMatchObject({
      race_outcomes: {
        fix: {
          candidates: ["c1", "c2", "c3"],
          reported: [{ id: "c2", passed: true, reason: null }],
          winner: "c2",
          cancelled: ["c1", "c3"],
        },
      },
    });
  });

  it("race_pending until a candidate passes; rejected ones carry their violations; list order decides", async () => {
    const { h, id } = await flow();
    const first = await report(h.api, id, [done("c1", false)]);
    expect(plain(first)).toEqual({
      status: "race_pending",
      flow_id: id,
      step_id: "fix",
      step_mode: "race",
      rejected: [{ id: "c1", violations: ["ensure_failed: ensure 'result.tests_pass' failed"] }],
      outstanding: ["c2", "c3"],
    });
    expect((await stored(h.store, id)).attempts.size).toBe(0);
    const second = await report(h.api, id, [done("c3", true, "three"), done("c2", true, "two")]);
    expect(plain(second)).toMatchObject({
      status: "execute_step",
      inputs: { diff: "three" },
      // c2 passed too but came second; c1 was rejected in the earlier call.
      race: {
        winner: "c3",
        cancel: [],
        rejected: [{ id: "c1", violations: ["ensure_failed: ensure 'result.tests_pass' failed"] }],
      },
    });
  });

  it("a candidate that failed, or whose result breaks the contract, does not win", async () => {
    const { h, id } = await flow();
    const next = await report(h.api, id, [
      failed("c1", "timeout"),
      '{"task_id": "c2", "status": "complete", "result": {"tests_pass": true}}',
    ]);
    expect(plain(next)).toMatchObject({
      status: "race_pending",
      rejected: [
        { id: "c1", violations: ["failed: timeout"] },
        { id: "c2", violations: [expect.stringMatching(/^schema_failed: .*diff/)] },
      ],
      outstanding: ["c3"],
    });
  });
});

describe("lost races", () => {
  it("every candidate rejected: ensure_failed with one violation each, then a new race", async () => {
    const { h, id } = await flow({ candidates: "2", extra: "        retries: 2\n" });
    const lost = await report(h.api, id, [done("c2", false), failed("c1", "crashed")]);
    expect(plain(lost)).toMatchObject({
      status: "ensure_failed",
      step_id: "fix",
      step_mode: "race",
      violations: [
        "race lost: candidate 'c1': failed: crashed",
        "race lost: candidate 'c2': ensure_failed: ensure 'result.tests_pass' failed",
      ],
      retries_remaining: 1,
    });
    // The new race starts empty: c1 may be reported again.
    expect((await stored(h.store, id)).judge_outcome.has("fix")).toBe(false);
    expect(plain(await report(h.api, id, [done("c1", true)]))).toMatchObject({
      status: "execute_step",
      race: { winner: "c1", cancel: ["c2"] },
    });
  });

  it("exhaustion without on_fail is retries_exhausted with a record", async () => {
    const { h, id } = await flow({ candidates: "1" });
    expect(plain(await report(h.api, id, [done("c1", false)]))).toMatchObject({
      status: "error",
      error_type: "retries_exhausted",
      step_mode: "race",
      violations: ["race lost: candidate 'c1': ensure_failed: ensure 'result.tests_pass' failed"],
    });
    expect((await stored(h.store, id)).records).toMatchObject([{ step_id: "fix", attempts: 1 }]);
  });

  it("exhaustion with on_fail routes there", async () => {
    const { h, id } = await flow({
      candidates: "1",
      extra: "        on_fail: by_hand\n",
      after: '      - id: by_hand\n        intent: "Fix by hand"\n',
    });
    expect(plain(await report(h.api, id, [done("c1", false)]))).toMatchObject({
      status: "execute_step",
      step_id: "by_hand",
      routed_from: "fix",
    });
  });
});

describe("refused reports", () => {
  it("unknown, repeated in one call, or already reported: invalid_arguments, nothing committed", async () => {
    const { h, id } = await flow({ candidates: "2" });
    expect(plain(await report(h.api, id, [done("c9", true)]))).toMatchObject({
      status: "error",
      error_type: "invalid_arguments",
      message: "task_results[0].task_id: 'c9' is not a candidate of race step 'fix' (c1, c2)",
    });
    expect(plain(await report(h.api, id, [done("c1", false), done("c1", false)]))).toMatchObject({
      message: "task_results[1].task_id: candidate 'c1' is reported twice",
    });
    expect((await report(h.api, id, [done("c1", false)])).status).toBe("race_pending");
    const before = (await stored(h.store, id)).revision;
    expect(plain(await report(h.api, id, [done("c2", false), done("c1", true)]))).toMatchObject({
      error_type: "invalid_arguments",
      message: "candidate 'c1' of race step 'fix' was already reported",
    });
    expect((await stored(h.store, id)).revision).toBe(before);
  });

  it("without an agent runner, start, poll and advance on a race step answer errors and change nothing", async () => {
    const { h, id } = await flow();
    expect(plain(await h.api.parallelStart({ flow_id: id, step_id: "fix" }))).toMatchObject({
      status: "error",
      error_type: "server_dispatch_unavailable",
    });
    expect(plain(await h.api.parallelPoll({ flow_id: id, step_id: "fix" }))).toMatchObject({
      error_type: "not_dispatched",
    });
    expect(
      plain(await h.api.parallelAdvance({ flow_id: id, step_id: "fix", merge_status: "clean" })),
    ).toMatchObject({ error_type: "wrong_step_type" });
    expect((await stored(h.store, id)).revision).toBe(1);
  });
});

describe("durability", () => {
  it("a restart mid-race: the new engine knows who was rejected and finishes the race", async () => {
    const { h, id } = await flow();
    expect((await report(h.api, id, [done("c1", false)])).status).toBe("race_pending");
    const api = h.restart();
    expect(plain(await report(api, id, [done("c1", true)]))).toMatchObject({
      error_type: "invalid_arguments",
    });
    expect(plain(await report(api, id, [done("c3", true, "late")]))).toMatchObject({
      status: "execute_step",
      inputs: { diff: "late" },
      race: { winner: "c3", cancel: ["c2"] },
    });
  });

  it("stratum_resume repeats the payload and keeps the race's reports", async () => {
    const { h, id } = await flow();
    await report(h.api, id, [done("c1", false)]);
    expect((await h.api.resume({ flow_id: id })).step_mode).toBe("race");
    expect(plain(await report(h.api, id, [done("c2", false)]))).toMatchObject({
      status: "race_pending",
      outstanding: ["c3"],
    });
  });
});
