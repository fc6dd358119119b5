// Scored iteration loops (docs/reference/runtime.md §25.2): score and score_error in the history,
// the best result (strictly greater wins), the exit response, exit_criterion's extra names, score
// stagnation, the abort response and stratum_step_done's substitution of the best result.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iterationAbort, iterationReport, iterationStart } from "../../../interpreter/flow/iterations";
import type { FlowRun } from "../../../interpreter/flow/run";
import { stepDone } from "../../../interpreter/flow/step-done";
import { data, FLOW_ID, keysOf, plain, type TestTx, world } from "./support";

/** `result` is untyped here, so the checker cannot know what result.flag gives. */
const UNTYPED = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: improve
        max_iterations: 4
        score_expr: "result.flag"
`;

const SCORED = (extra: string, max = 4) => `version: "0.2"
contracts:
  Out:
    v: {type: string}
    score: {type: number}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: improve
        output_contract: Out
        max_iterations: ${max}
        score_expr: "result.score"
${extra}      - id: b
        intent: wrap up
`;

function start(tx: TestTx) {
  return iterationStart(tx, { flow_id: FLOW_ID, step_id: "a" });
}
function report(tx: TestTx, result: unknown) {
  return iterationReport(tx, { flow_id: FLOW_ID, step_id: "a", result: data(result) });
}
function history(run: FlowRun): Record<string, unknown>[] {
  return (run.state.iterations.get("a") ?? []).map((entry) => plain(entry) as Record<string, unknown>);
}

describe("score_expr at run time", () => {
  it("records score null with the reference's score_error texts; no best, final_result is the last result", () => {
    const { tx, run } = world(UNTYPED);
    expect(plain(start(tx))).toMatchObject({ status: "iteration_started" });
    expect(run.state.active_iteration?.score_expr).toBe("result.flag");
    report(tx, { flag: true });
    report(tx, { v: "b" });
    report(tx, { flag: "x" });
    const last = report(tx, { flag: false });
    expect(history(run).map((e) => [e.score, e.score_error])).toEqual([
      [null, "Score expression 'result.flag' returned bool (True), expected numeric"],
      [null, "Score expression 'result.flag' raised: 'types.SimpleNamespace' object has no attribute 'flag'"],
      [null, "Score expression 'result.flag' returned non-numeric type str"],
      [null, "Score expression 'result.flag' returned bool (False), expected numeric"],
    ]);
    // A failed score does not fail the iteration: the loop ran to max_iterations.
    expect(plain(last)).toEqual({
      status: "iteration_exit",
      flow_id: FLOW_ID,
      step_id: "a",
      iteration: 4,
      max_iterations: 4,
      exit_criterion_met: false,
      outcome: "exit_max",
      final_result: { flag: false },
    });
    expect(run.state.iteration_best.has("a")).toBe(false);
    expect(tx.facts.filter((f) => f.type === "expression_failed")).toHaveLength(4);
  });

  it("keeps the first of equal best scores; the exit response carries the best result, score and iteration", () => {
    const { tx, run } = world(SCORED(""));
    start(tx);
    for (const [v, score] of [
      ["a", 0.2],
      ["b", 0.7],
      ["c", 0.7],
    ] as const) {
      expect(plain(report(tx, { v, score }))).toMatchObject({ outcome: "continue" });
    }
    const exit = report(tx, { v: "d", score: 0.1 });
    expect(keysOf(exit)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "iteration",
      "max_iterations",
      "exit_criterion_met",
      "outcome",
      "final_result",
      "best_score",
      "best_iteration",
    ]);
    expect(plain(exit)).toMatchObject({
      outcome: "exit_max",
      final_result: { v: "b", score: 0.7 },
      best_score: 0.7,
      best_iteration: 2,
    });
    expect(history(run).map((e) => e.score)).toEqual([0.2, 0.7, 0.7, 0.1]);
    expect(Object.keys(history(run)[0] ?? {})).toEqual([
      "iteration",
      "round",
      "result",
      "result_fingerprint",
      "exit_criterion_met",
      "outcome",
      "timestamp",
      "score",
    ]);
  });

  it("turns an int score into a float (3 is written 3.0 in the state)", () => {
    const { tx, run } = world(SCORED(""));
    start(tx);
    report(tx, { v: "a", score: 3 });
    const stored = run.state.iterations.get("a")?.[0]?.score;
    expect(stored?.constructor.name).toBe("PyFloat");
  });

  it("binds best_score (this iteration included), prior_scores (earlier only) and iteration in exit_criterion", () => {
    const criterion =
      '        exit_criterion: "iteration == 3 and best_score == 0.9 and prior_scores == [0.5, 0.9]"\n';
    const { tx } = world(SCORED(criterion, 5));
    start(tx);
    expect(plain(report(tx, { v: "a", score: 0.5 }))).toMatchObject({ exit_criterion_met: false });
    expect(plain(report(tx, { v: "b", score: 0.9 }))).toMatchObject({ exit_criterion_met: false });
    const third = report(tx, { v: "c", score: 0.2 });
    expect(plain(third)).toMatchObject({
      outcome: "exit_success",
      final_result: { v: "b", score: 0.9 },
      best_iteration: 2,
    });
  });

  it("exits with exit_stagnation once the best is three iterations old and nothing since beat it", () => {
    const { tx } = world(SCORED("", 9));
    start(tx);
    const outcomes = [0.5, 0.8, 0.8, 0.3, 0.8].map(
      (score, i) => (plain(report(tx, { v: String(i), score })) as { outcome: string }).outcome,
    );
    // Best at iteration 2 (the tie at 3 keeps it); at iteration 5 it is three iterations old.
    expect(outcomes).toEqual(["continue", "continue", "continue", "continue", "exit_stagnation"]);
  });

  it("does not apply the fingerprint rule to a scored loop", () => {
    const { tx } = world(SCORED("", 9));
    start(tx);
    const outcomes = [1, 2, 3, 4].map(
      () => (plain(report(tx, { v: "same", score: 0.5 })) as { outcome: string }).outcome,
    );
    // Three identical results end an unscored loop at the third report; here the scores decide.
    expect(outcomes).toEqual(["continue", "continue", "continue", "exit_stagnation"]);
  });

  it("aborts with best_result and best_score: null before any score, the best once there is one", () => {
    const first = world(SCORED(""));
    start(first.tx);
    const before = iterationAbort(first.tx, { flow_id: FLOW_ID, step_id: "a", reason: "stop" });
    expect(plain(before)).toMatchObject({ status: "iteration_aborted", best_result: null, best_score: null });
    const second = world(SCORED(""));
    start(second.tx);
    report(second.tx, { v: "a", score: 0.4 });
    const after = iterationAbort(second.tx, { flow_id: FLOW_ID, step_id: "a", reason: "stop" });
    expect(plain(after)).toMatchObject({ best_result: { v: "a", score: 0.4 }, best_score: 0.4 });
  });

  it("stores the best result at stratum_step_done, checked in place of the reported one, then clears it", () => {
    const { tx, run } = world(SCORED('        ensure: ["result.score > 0.5"]\n'));
    start(tx);
    report(tx, { v: "best", score: 0.9 });
    report(tx, { v: "worse", score: 0.2 });
    // The reported result would fail the ensure; the best one passes and is what the step stores.
    const done = stepDone(tx, { flow_id: FLOW_ID, step_id: "a", result: data({ v: "worse", score: 0.2 }) });
    expect(plain(done)).toMatchObject({ status: "execute_step", step_id: "b" });
    expect(plain(run.state.step_outputs.get("a") ?? null)).toMatchObject({ v: "best", score: 0.9 });
    expect(run.state.iteration_best.has("a")).toBe(false);
  });
});

describe("score_expr properties", () => {
  const score = fc.oneof(
    fc.constantFrom(0, 0.5, 1),
    fc.double({ min: -5, max: 5, noNaN: true }),
    fc.constant(null),
  );

  it("the best is the first iteration holding the greatest score; stagnation needs a best three iterations old", () => {
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 8 }), (scores) => {
        const { tx, run } = world(SCORED("", 8));
        start(tx);
        const reported: (number | null)[] = [];
        let last: Record<string, unknown> = {};
        for (const [i, s] of scores.entries()) {
          if (run.state.active_iteration === null) break;
          last = plain(report(tx, s === null ? { v: String(i) } : { v: String(i), score: s })) as Record<
            string,
            unknown
          >;
          reported.push(s);
        }
        const numbers = reported.filter((s): s is number => s !== null);
        const stored = plain(run.state.iteration_best.get("a") ?? null) as { iteration: number } | null;
        if (numbers.length === 0) {
          expect(stored).toBeNull();
          return;
        }
        const max = Math.max(...numbers);
        const first = reported.indexOf(max) + 1;
        expect(stored).toMatchObject({ score: max, iteration: first });
        if (last.outcome === "exit_stagnation") expect(reported.length - first).toBeGreaterThanOrEqual(3);
        if (last.status === "iteration_exit") expect(last.best_iteration).toBe(first);
      }),
      { numRuns: 80 },
    );
  });
});
