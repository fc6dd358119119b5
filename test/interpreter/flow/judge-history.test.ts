// The judge history (docs/reference/runtime.md §25.3): every judged stratum_judge call is a turn of
// its step, recorded in the flow (one record per predicate and tier, the last turn's outcome) and
// persisted with it; `budget_consumed.turns` counts the turns, `budget.max_turns` refuses the call
// past the cap before anything is judged, and clearing the step (on_fail, next) starts it over.
import { describe, expect, it } from "vitest";
import { fromJsonValue, toJson } from "../../../stdlib/values/json";
import type { PyValue } from "../../../stdlib/values/value";
import { makeTestApi, tempFileStore } from "../support/make-test-api";
import { plain, planOk, result, stored } from "./api-fixtures";

const SPEC = (budget: string, onFail = "") => `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: build
        intent: "Build it"
      - id: review
        depends_on: [build]
        judge:
          predicates: [{id: p1, type: deterministic, statement: "file_exists('artifacts/log.txt')"}]
${budget}        ensure: ["result.met"]
        retries: 1
${onFail}`;

function toJsonValue(v: PyValue): unknown {
  return JSON.parse(toJson(v));
}

const PREDICATES = fromJsonValue([
  { id: "p1", type: "deterministic", statement: "file_exists('artifacts/log.txt')" },
]);

async function atReview(spec: string, budget: Record<string, number> | null) {
  const files = tempFileStore();
  const h = makeTestApi({ cwd: "/nowhere", store: files.store });
  const plan = await planOk(h.api, spec);
  const flowId = String(plan.flow_id);
  await h.api.stepDone({ flow_id: flowId, step_id: "build", result: result("{}") });
  const judge = (artifacts: Record<string, string> = { log: "ok" }) =>
    h.api.judge({
      flow_id: flowId,
      step_id: "review",
      predicates: PREDICATES,
      budget: budget === null ? null : fromJsonValue(budget),
      artifacts: new Map(Object.entries(artifacts)),
    });
  return { h, files, flowId, judge };
}

describe("the judge history", () => {
  it("counts turns, records each predicate's tiers and the last outcome, and persists them", async () => {
    const { h, files, flowId, judge } = await atReview(SPEC(""), null);
    try {
      expect(plain(await judge({}))).toMatchObject({ met: false, budget_consumed: { turns: 1 } });
      expect(plain(await judge())).toMatchObject({ met: true, budget_consumed: { turns: 2 } });
      const state = await stored(files.store, flowId);
      expect(toJsonValue(state.judge_history.get("review") ?? null)).toEqual([
        {
          turn: 1,
          predicate_id: "p1",
          tier: "T1",
          verdict: "not_met",
          confidence: 10,
          reason: "deterministic check",
        },
        {
          turn: 2,
          predicate_id: "p1",
          tier: "T1",
          verdict: "met",
          confidence: 10,
          reason: "deterministic check",
        },
      ]);
      expect(toJsonValue(state.judge_outcome.get("review") ?? null)).toEqual({
        met: true,
        predicate_results: [
          {
            id: "p1",
            type: "deterministic",
            statement: "file_exists('artifacts/log.txt')",
            verdict: "met",
            confidence: 10,
            applied_gate: 7,
            evidence: [],
            tier_history: [{ tier: "T1", verdict: "met", confidence: 10, reason: "deterministic check" }],
          },
        ],
      });
      // The audit shows member steps' judgements only, as before.
      expect(Object.keys(plain(await h.api.audit({ flow_id: flowId })) as object)).not.toContain(
        "quorum_votes",
      );
      // A restarted server reads the turns from the store.
      h.restart();
      expect(plain(await judge())).toMatchObject({ budget_consumed: { turns: 3 } });
    } finally {
      files.dispose();
    }
  });

  it("refuses the turn past max_turns before judging, and records nothing for it", async () => {
    const { files, flowId, judge } = await atReview(SPEC("          budget: {max_turns: 2}\n"), {
      max_turns: 2,
    });
    try {
      await judge();
      await judge();
      expect(plain(await judge())).toEqual({
        status: "error",
        error_type: "BudgetExceededError",
        message: "turn budget exceeded: next turn would be 3, max_turns=2",
      });
      // Before the artifact checks: the turn is refused first, as the reference's kernel does.
      expect(plain(await judge({ ".env": "x" }))).toMatchObject({ error_type: "BudgetExceededError" });
      const state = await stored(files.store, flowId);
      expect(toJsonValue(state.judge_history.get("review") ?? null)).toHaveLength(2);
    } finally {
      files.dispose();
    }
  });

  it("does not count a call that was refused or could not judge", async () => {
    const { judge } = await atReview(SPEC(""), null);
    expect(plain(await judge({ ".env": "x" }))).toMatchObject({ error_type: "invalid_artifact" });
    expect(plain(await judge())).toMatchObject({ budget_consumed: { turns: 1 } });
  });

  it("keeps the turns when on_fail routes back (the failing step is preserved, as in the reference)", async () => {
    const spec = SPEC("          budget: {max_turns: 1}\n", "        on_fail: build\n");
    const { h, flowId, judge } = await atReview(spec, { max_turns: 1 });
    expect(plain(await judge({}))).toMatchObject({ met: false, budget_consumed: { turns: 1 } });
    const routed = await h.api.stepDone({
      flow_id: flowId,
      step_id: "review",
      result: result('{"met": false}'),
    });
    expect(plain(routed)).toMatchObject({ step_id: "build", routed_from: "review" });
    await h.api.stepDone({ flow_id: flowId, step_id: "build", result: result("{}") });
    expect(plain(await judge())).toMatchObject({ error_type: "BudgetExceededError" });
  });

  it("starts over when next routes back through the step", async () => {
    const spec = SPEC("          budget: {max_turns: 1}\n", "        next: build\n");
    const { h, flowId, judge } = await atReview(spec, { max_turns: 1 });
    expect(plain(await judge())).toMatchObject({ met: true, budget_consumed: { turns: 1 } });
    const routed = await h.api.stepDone({
      flow_id: flowId,
      step_id: "review",
      result: result('{"met": true}'),
    });
    expect(plain(routed)).toMatchObject({ step_id: "build" });
    await h.api.stepDone({ flow_id: flowId, step_id: "build", result: result("{}") });
    expect(plain(await judge())).toMatchObject({ met: true, budget_consumed: { turns: 1 } });
  });
});
