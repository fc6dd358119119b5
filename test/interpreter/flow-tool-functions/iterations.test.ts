// The iteration tools (docs/reference/runtime.md §9): start / report / abort responses in their exact key order,
// the refusals and their messages, accumulation, exit criteria, fingerprints (the recorded
// reference digests), stagnation and the history entries.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iterationAbort, iterationReport, iterationStart } from "../../../interpreter/flow/iterations";
import type { FlowRun } from "../../../interpreter/flow/run";
import { PyFloat } from "../../../stdlib/values/value";
import { data, FLOW_ID, keysOf, plain, type TestTx, world } from "./support";

const REFINE = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: refine
        intent: "Improve the output quality"
        max_iterations: 5
        exit_criterion: "result.quality >= 0.95"
      - id: wrap
        intent: "Wrap up"
`;

const HUNT = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: hunt
        intent: "Find issues"
        max_iterations: 6
        accumulate: "result.findings"
        accumulate_key: "item.id"
        exit_criterion: "dry_streak >= 2"
`;

const COLLECT = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: collect
        intent: "Collect"
        max_iterations: 4
        accumulate: "result.items"
`;

const PLANNED = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: build
        intent: "Build the plan"
        max_iterations: 3
        exit_criterion: "plan_completion(result.items, result.files)"
`;

function start(tx: TestTx, stepId: string) {
  return iterationStart(tx, { flow_id: FLOW_ID, step_id: stepId });
}
function report(tx: TestTx, stepId: string, result: unknown) {
  return iterationReport(tx, { flow_id: FLOW_ID, step_id: stepId, result: data(result) });
}
function abort(tx: TestTx, stepId: string, reason: string) {
  return iterationAbort(tx, { flow_id: FLOW_ID, step_id: stepId, reason });
}
function history(run: FlowRun, stepId: string): unknown {
  return (run.state.iterations.get(stepId) ?? []).map((entry) => plain(entry));
}

describe("iteration_start", () => {
  it("starts a loop: response keys in order, active_iteration persisted", () => {
    const { tx, run, clock } = world(REFINE);
    clock.advance(500);
    const response = start(tx, "refine");
    expect(keysOf(response)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "max_iterations",
      "exit_criterion",
      "iteration",
    ]);
    expect(plain(response)).toEqual({
      status: "iteration_started",
      flow_id: FLOW_ID,
      step_id: "refine",
      max_iterations: 5,
      exit_criterion: "result.quality >= 0.95",
      iteration: 0,
    });
    expect(run.state.active_iteration).toEqual({
      step_id: "refine",
      round: 0,
      max_iterations: 5,
      exit_criterion: "result.quality >= 0.95",
      score_expr: null,
      accumulate: null,
      accumulate_key: null,
      count: 0,
      started_at: new PyFloat(1.5),
      status: "active",
    });
    expect(Object.keys(run.state.active_iteration ?? {})).toEqual([
      "step_id",
      "round",
      "max_iterations",
      "exit_criterion",
      "score_expr",
      "accumulate",
      "accumulate_key",
      "count",
      "started_at",
      "status",
    ]);
    expect(tx.edited.has(FLOW_ID)).toBe(true);
  });

  it("records accumulate and accumulate_key texts and a null exit criterion", () => {
    const { tx, run } = world(COLLECT);
    expect(plain(start(tx, "collect"))).toMatchObject({ exit_criterion: null, max_iterations: 4 });
    expect(run.state.active_iteration).toMatchObject({ accumulate: "result.items", accumulate_key: null });
  });

  const error = (message: string) => ({
    status: "error",
    success: false,
    error_type: "execution_error",
    message,
  });

  it("refuses, in the documented order, with execution errors", () => {
    const spec = `version: "0.2"
functions:
  g: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: b
        intent: "B"
        max_iterations: 3
      - id: g
        function: g
        on_approve: ~
        on_revise: b
        on_kill: ~
`;
    const { tx, run } = world(spec);
    expect(plain(start(tx, "b"))).toEqual(error("Expected step 'a', got 'b'"));
    expect(plain(start(tx, "a"))).toEqual(error("Step 'a' does not have max_iterations defined"));
    run.state.current_idx = 2;
    expect(plain(start(tx, "g"))).toEqual(error("Step 'g' is a gate step — cannot start iteration loop"));
    run.state.current_idx = 1;
    expect(plain(start(tx, "b"))).toMatchObject({ status: "iteration_started" });
    expect(plain(start(tx, "b"))).toEqual(error("Iteration loop already active on step 'b'"));
    expect(plain(abort(tx, "b", "stop"))).toMatchObject({ status: "iteration_aborted" });
    expect(plain(start(tx, "b"))).toEqual(
      error("Step 'b' already has a pending iteration outcome ('exit_abort') — call stratum_step_done first"),
    );
    run.state.current_idx = 3;
    expect(plain(start(tx, "b"))).toEqual(error("Flow is already complete"));
  });

  it("refuses nothing else and edits nothing when refusing", () => {
    const { tx } = world(REFINE);
    start(tx, "wrap");
    expect(tx.edited.size).toBe(0);
  });

  it("answers flow_not_found for an unknown flow", () => {
    const { tx } = world(REFINE);
    expect(plain(iterationStart(tx, { flow_id: "nope", step_id: "refine" }))).toEqual({
      status: "error",
      error_type: "flow_not_found",
      message: "No active flow with id 'nope'",
    });
  });
});

describe("iteration_report", () => {
  it("replays iteration_exit_success: continue, then exit with final_result; history with reference fingerprints", () => {
    const { tx, run, clock } = world(REFINE);
    start(tx, "refine");
    clock.advance(250);
    const first = report(tx, "refine", { quality: 0.5 });
    expect(keysOf(first)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "iteration",
      "max_iterations",
      "exit_criterion_met",
      "outcome",
    ]);
    expect(plain(first)).toEqual({
      status: "iteration_continue",
      flow_id: FLOW_ID,
      step_id: "refine",
      iteration: 1,
      max_iterations: 5,
      exit_criterion_met: false,
      outcome: "continue",
    });
    const second = report(tx, "refine", { quality: 0.97 });
    expect(keysOf(second)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "iteration",
      "max_iterations",
      "exit_criterion_met",
      "outcome",
      "final_result",
    ]);
    expect(plain(second)).toEqual({
      status: "iteration_exit",
      flow_id: FLOW_ID,
      step_id: "refine",
      iteration: 2,
      max_iterations: 5,
      exit_criterion_met: true,
      outcome: "exit_success",
      final_result: { quality: 0.97 },
    });
    expect(history(run, "refine")).toEqual([
      {
        iteration: 1,
        round: 0,
        result: { quality: 0.5 },
        result_fingerprint: "73488582a5cd71f0864843b6126bec2e4a24510271d71e32c6e412433a70ebe4",
        exit_criterion_met: false,
        outcome: "continue",
        timestamp: 1.25,
      },
      {
        iteration: 2,
        round: 0,
        result: { quality: 0.97 },
        result_fingerprint: "30cc76d9ed0cd29bd6f4a737edc6a6b48e4429390416f10aecb9d7fe7bb21b9b",
        exit_criterion_met: true,
        outcome: "exit_success",
        timestamp: 1.25,
      },
    ]);
    const entry = run.state.iterations.get("refine")?.[0] ?? {};
    expect(Object.keys(entry)).toEqual([
      "iteration",
      "round",
      "result",
      "result_fingerprint",
      "exit_criterion_met",
      "outcome",
      "timestamp",
    ]);
    expect(entry.timestamp).toBeInstanceOf(PyFloat);
    expect(run.state.iteration_outcome.get("refine")).toBe("exit_success");
    expect(run.state.active_iteration).toBeNull();
    // Any report creates an accumulator, also without `accumulate` (docs/reference/runtime.md §4.6).
    expect(run.state.iteration_accumulator.get("refine")).toEqual({ items: [], seen: [], dry_streak: 0 });
  });

  it("exits with exit_max at max_iterations when the criterion is not met", () => {
    const { tx, run } = world(REFINE.replace("max_iterations: 5", "max_iterations: 2"));
    start(tx, "refine");
    expect(plain(report(tx, "refine", { quality: 0.1 }))).toMatchObject({ outcome: "continue" });
    expect(plain(report(tx, "refine", { quality: 0.2 }))).toEqual({
      status: "iteration_exit",
      flow_id: FLOW_ID,
      step_id: "refine",
      iteration: 2,
      max_iterations: 2,
      exit_criterion_met: false,
      outcome: "exit_max",
      final_result: { quality: 0.2 },
    });
    expect(run.state.iteration_outcome.get("refine")).toBe("exit_max");
  });

  it("replays accumulate_dry_streak: dedup by accumulate_key, dry streak, accumulated on exit", () => {
    const { tx, run } = world(HUNT);
    start(tx, "hunt");
    const r1 = report(tx, "hunt", {
      findings: [
        { id: 1, t: "a" },
        { id: 2, t: "b" },
      ],
    });
    expect(keysOf(r1)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "iteration",
      "max_iterations",
      "exit_criterion_met",
      "outcome",
      "new_count",
      "dry_streak",
    ]);
    expect(plain(r1)).toMatchObject({ iteration: 1, new_count: 2, dry_streak: 0, outcome: "continue" });
    expect(
      plain(
        report(tx, "hunt", {
          findings: [
            { id: 2, t: "B" },
            { id: 3, t: "c" },
          ],
        }),
      ),
    ).toMatchObject({
      new_count: 1,
      dry_streak: 0,
    });
    expect(plain(report(tx, "hunt", { findings: [{ id: 1, t: "again" }] }))).toMatchObject({
      new_count: 0,
      dry_streak: 1,
      exit_criterion_met: false,
    });
    const last = report(tx, "hunt", { findings: [] });
    expect(keysOf(last)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "iteration",
      "max_iterations",
      "exit_criterion_met",
      "outcome",
      "new_count",
      "dry_streak",
      "final_result",
      "accumulated",
      "accumulated_count",
    ]);
    expect(plain(last)).toEqual({
      status: "iteration_exit",
      flow_id: FLOW_ID,
      step_id: "hunt",
      iteration: 4,
      max_iterations: 6,
      exit_criterion_met: true,
      outcome: "exit_success",
      new_count: 0,
      dry_streak: 2,
      final_result: { findings: [] },
      accumulated: [
        { id: 1, t: "a" },
        { id: 2, t: "b" },
        { id: 3, t: "c" },
      ],
      accumulated_count: 3,
    });
    const entries = run.state.iterations.get("hunt") ?? [];
    expect(entries.map((e) => e.result_fingerprint)).toEqual([
      "842dbe7240e13a5dbc37ced26f75db11fce557e0dd719c2cb38fd6989facda4e",
      "6f227d35e4cfd4ecea67f78dc4a83c54cc7be6737615a0a354c6e9d71b70350b",
      "8165a505b1a451d0cd550b075a9bbaaab04c6c67f0c3e7d7f2bda813688a2ae6",
      "6e96a492bc9fa40d22212c5be0396a203f3dbd4916cf97ebe2f66b6d54fa4a9a",
    ]);
    expect(Object.keys(entries[0] ?? {})).toEqual([
      "iteration",
      "round",
      "result",
      "result_fingerprint",
      "exit_criterion_met",
      "outcome",
      "timestamp",
      "new_count",
      "dry_streak",
      "accumulated_count",
    ]);
    expect(entries.map((e) => [e.new_count, e.dry_streak, e.accumulated_count])).toEqual([
      [2, 0, 2],
      [1, 0, 3],
      [0, 1, 3],
      [0, 2, 3],
    ]);
    expect(plain(run.state.iteration_accumulator.get("hunt")?.seen ?? [])).toEqual(["1", "2", "3"]);
  });

  it("replays accumulate_whole_item_dedup: whole elements deduplicated by canonical JSON", () => {
    const { tx, run } = world(COLLECT);
    start(tx, "collect");
    expect(plain(report(tx, "collect", { items: [{ b: 1, a: 2 }, "x"] }))).toMatchObject({ new_count: 2 });
    expect(plain(report(tx, "collect", { items: [{ a: 2, b: 1 }, "x", "y"] }))).toMatchObject({
      new_count: 1,
    });
    expect(plain(report(tx, "collect", { items: ["y"] }))).toMatchObject({ new_count: 0, dry_streak: 1 });
    expect(plain(report(tx, "collect", { items: ["y"] }))).toEqual({
      status: "iteration_exit",
      flow_id: FLOW_ID,
      step_id: "collect",
      iteration: 4,
      max_iterations: 4,
      exit_criterion_met: false,
      outcome: "exit_max",
      new_count: 0,
      dry_streak: 2,
      final_result: { items: ["y"] },
      accumulated: [{ b: 1, a: 2 }, "x", "y"],
      accumulated_count: 3,
    });
    expect(run.state.iteration_accumulator.get("collect")?.seen).toEqual(['{"a": 2, "b": 1}', '"x"', '"y"']);
  });

  it("reports stagnation on the third identical result (criterion not met, no accumulate)", () => {
    const { tx, run } = world(REFINE);
    start(tx, "refine");
    expect(plain(report(tx, "refine", { quality: 0.5 }))).toMatchObject({ outcome: "continue" });
    expect(plain(report(tx, "refine", { quality: 0.5 }))).toMatchObject({ outcome: "continue" });
    expect(plain(report(tx, "refine", { quality: 0.5 }))).toMatchObject({
      status: "iteration_exit",
      outcome: "exit_stagnation",
      iteration: 3,
      exit_criterion_met: false,
    });
    expect(run.state.iteration_outcome.get("refine")).toBe("exit_stagnation");
  });

  it("counts stagnation across loops of the round, and an abort entry breaks the run", () => {
    const { tx, run } = world(REFINE);
    start(tx, "refine");
    report(tx, "refine", { quality: 0.5 });
    report(tx, "refine", { quality: 0.5 });
    abort(tx, "refine", "again");
    run.state.iteration_outcome.delete("refine"); // what stratum_step_done's retry does
    start(tx, "refine");
    expect(plain(report(tx, "refine", { quality: 0.5 }))).toMatchObject({
      outcome: "continue",
      iteration: 1,
    });
    expect(plain(report(tx, "refine", { quality: 0.5 }))).toMatchObject({ outcome: "continue" });
    // Without the abort in between, the history of an earlier loop counts (the reference's window).
    const other = world(REFINE);
    start(other.tx, "refine");
    report(other.tx, "refine", { quality: 0.5 });
    report(other.tx, "refine", { quality: 0.5 });
    other.run.state.active_iteration = null; // a loop closed some other way (e.g. cleared)
    start(other.tx, "refine");
    expect(plain(report(other.tx, "refine", { quality: 0.5 }))).toMatchObject({
      outcome: "exit_stagnation",
      iteration: 1,
    });
  });

  it("prefers exit_success over stagnation, and stagnation over exit_max", () => {
    // The third report is both stagnant and at max_iterations.
    const second = world(REFINE.replace("max_iterations: 5", "max_iterations: 3"));
    start(second.tx, "refine");
    report(second.tx, "refine", { quality: 0.5 });
    report(second.tx, "refine", { quality: 0.5 });
    expect(plain(report(second.tx, "refine", { quality: 0.5 }))).toMatchObject({
      outcome: "exit_stagnation",
    });
    const third = world(REFINE);
    start(third.tx, "refine");
    report(third.tx, "refine", { quality: 0.99 });
    third.run.state.iteration_outcome.delete("refine");
    start(third.tx, "refine");
    report(third.tx, "refine", { quality: 0.99 });
    third.run.state.iteration_outcome.delete("refine");
    start(third.tx, "refine");
    // Stagnant too (three identical results), but the met criterion wins.
    expect(plain(report(third.tx, "refine", { quality: 0.99 }))).toMatchObject({ outcome: "exit_success" });
  });

  it("never reports stagnation for a step with accumulate", () => {
    const { tx } = world(COLLECT);
    start(tx, "collect");
    report(tx, "collect", { items: [1] });
    report(tx, "collect", { items: [1] });
    expect(plain(report(tx, "collect", { items: [1] }))).toMatchObject({
      outcome: "continue",
      dry_streak: 2,
    });
  });

  it("an exit criterion that raises is not met and reports exit_criterion_error", () => {
    const { tx, run } = world(REFINE);
    start(tx, "refine");
    const response = report(tx, "refine", { other: 1 });
    expect(keysOf(response)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "iteration",
      "max_iterations",
      "exit_criterion_met",
      "outcome",
      "exit_criterion_error",
    ]);
    expect(plain(response)).toMatchObject({
      exit_criterion_met: false,
      outcome: "continue",
      exit_criterion_error:
        "Ensure expression 'result.quality >= 0.95' raised: 'types.SimpleNamespace' object has no attribute 'quality'",
    });
    expect(Object.keys(run.state.iterations.get("refine")?.[0] ?? {})).not.toContain("exit_criterion_error");
  });

  it("an exit criterion whose helper raises a list of violations reads as a failed ensure, as the reference's", () => {
    const { tx } = world(PLANNED);
    start(tx, "build");
    const items = [{ text: "parser", file: "p.ts", critical: true }];
    expect(plain(report(tx, "build", { items, files: [] }))).toMatchObject({
      exit_criterion_met: false,
      outcome: "continue",
      exit_criterion_error: "ensure 'plan_completion(result.items, result.files)' failed",
    });
    expect(plain(report(tx, "build", { items, files: ["p.ts"] }))).toMatchObject({
      exit_criterion_met: true,
      outcome: "exit_success",
    });
  });

  it("a failing accumulate: accumulate_error, new_count null, dry streak unchanged", () => {
    const { tx, run } = world(HUNT);
    start(tx, "hunt");
    report(tx, "hunt", { findings: [] });
    const response = report(tx, "hunt", { nothing: true });
    expect(keysOf(response)).toEqual([
      "status",
      "flow_id",
      "step_id",
      "iteration",
      "max_iterations",
      "exit_criterion_met",
      "outcome",
      "accumulate_error",
      "new_count",
      "dry_streak",
    ]);
    expect(plain(response)).toMatchObject({
      accumulate_error:
        "Expression 'result.findings' raised: 'types.SimpleNamespace' object has no attribute 'findings'",
      new_count: null,
      dry_streak: 1,
      exit_criterion_met: false,
    });
    const entry = run.state.iterations.get("hunt")?.[1] ?? {};
    expect(Object.keys(entry).slice(7)).toEqual([
      "new_count",
      "dry_streak",
      "accumulated_count",
      "accumulate_error",
    ]);
    expect(plain(entry)).toMatchObject({ new_count: null, dry_streak: 1, accumulated_count: 0 });
  });

  it("an accumulate that is not a list is an accumulate_error", () => {
    const { tx } = world(COLLECT);
    start(tx, "collect");
    expect(plain(report(tx, "collect", { items: "abc" }))).toMatchObject({
      accumulate_error: "accumulate expression 'result.items' did not return a list",
      new_count: null,
      dry_streak: 0,
    });
  });

  it("exit_criterion sees accumulator, accumulated_count, new_count and dry_streak", () => {
    const spec = HUNT.replace(
      'exit_criterion: "dry_streak >= 2"',
      "exit_criterion: \"accumulated_count == 2 and len(accumulator) == 2 and new_count == 1 and dry_streak == 0 and accumulator[1]['id'] == 5\"",
    );
    const { tx } = world(spec);
    start(tx, "hunt");
    expect(plain(report(tx, "hunt", { findings: [{ id: 4 }] }))).toMatchObject({ exit_criterion_met: false });
    expect(plain(report(tx, "hunt", { findings: [{ id: 5 }] }))).toMatchObject({
      exit_criterion_met: true,
      outcome: "exit_success",
    });
  });

  it("a failing accumulate binds new_count None for the criterion", () => {
    const spec = HUNT.replace('exit_criterion: "dry_streak >= 2"', 'exit_criterion: "new_count is None"');
    const { tx } = world(spec);
    start(tx, "hunt");
    expect(plain(report(tx, "hunt", { findings: 3 }))).toMatchObject({ exit_criterion_met: true });
  });

  it("refuses without an active loop or for another step, and changes nothing", () => {
    const { tx, run } = world(REFINE);
    expect(plain(report(tx, "refine", {}))).toEqual({
      status: "error",
      success: false,
      error_type: "execution_error",
      message: "No active iteration loop",
    });
    start(tx, "refine");
    tx.edited.clear();
    expect(plain(report(tx, "wrap", {}))).toEqual({
      status: "error",
      success: false,
      error_type: "execution_error",
      message: "Active iteration is on step 'refine', got report for 'wrap'",
    });
    expect(tx.edited.size).toBe(0);
    expect(run.state.active_iteration?.count).toBe(0);
  });

  it("accepts a report while the flow has moved on (the current step is not checked)", () => {
    const { tx, run } = world(REFINE);
    start(tx, "refine");
    run.state.current_idx = 2;
    expect(plain(report(tx, "refine", { quality: 1.0 }))).toMatchObject({ outcome: "exit_success" });
  });

  it("fingerprints non-object results (a list) and keeps the int/float distinction", () => {
    const { tx, run } = world(REFINE.replace('"result.quality >= 0.95"', '"len(result) > 5"'));
    start(tx, "refine");
    report(tx, "refine", data([1, 2]));
    iterationReport(tx, { flow_id: FLOW_ID, step_id: "refine", result: [1, new PyFloat(2)] });
    const [a, b] = run.state.iterations.get("refine") ?? [];
    expect(a?.result_fingerprint).not.toBe(b?.result_fingerprint);
  });
});

describe("iteration_abort", () => {
  it("replays iteration_abort: entry without fingerprint, outcome exit_abort, loop closed", () => {
    const { tx, run } = world(REFINE);
    start(tx, "refine");
    report(tx, "refine", { quality: 0.3 });
    const response = abort(tx, "refine", "good enough");
    expect(keysOf(response)).toEqual(["status", "flow_id", "step_id", "iteration", "reason"]);
    expect(plain(response)).toEqual({
      status: "iteration_aborted",
      flow_id: FLOW_ID,
      step_id: "refine",
      iteration: 1,
      reason: "good enough",
    });
    const entry = run.state.iterations.get("refine")?.[1] ?? {};
    expect(Object.keys(entry)).toEqual([
      "iteration",
      "round",
      "result",
      "exit_criterion_met",
      "outcome",
      "timestamp",
    ]);
    expect(plain(entry)).toMatchObject({
      iteration: 1,
      round: 0,
      result: { aborted: true, reason: "good enough" },
      exit_criterion_met: false,
      outcome: "exit_abort",
    });
    expect(run.state.iteration_outcome.get("refine")).toBe("exit_abort");
    expect(run.state.active_iteration).toBeNull();
    expect(plain(report(tx, "refine", { quality: 0.3 }))).toMatchObject({
      message: "No active iteration loop",
    });
  });

  it("uses the report guards with 'abort' in the message", () => {
    const { tx } = world(REFINE);
    expect(plain(abort(tx, "refine", "x"))).toMatchObject({ message: "No active iteration loop" });
    start(tx, "refine");
    expect(plain(abort(tx, "wrap", "x"))).toMatchObject({
      success: false,
      message: "Active iteration is on step 'refine', got abort for 'wrap'",
    });
  });
});

describe("iteration_report properties", () => {
  it("a loop ends at the first met criterion, else three equal results in a row, else max_iterations", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0.1, 0.5, 0.99), { minLength: 1, maxLength: 8 }), (qualities) => {
        const { tx, run } = world(REFINE);
        start(tx, "refine");
        const seen: number[] = [];
        for (const [i, quality] of qualities.entries()) {
          const response = plain(report(tx, "refine", { quality })) as { outcome: string; iteration: number };
          seen.push(quality);
          const n = seen.length;
          const expected =
            quality >= 0.95
              ? "exit_success"
              : n >= 3 && seen[n - 2] === quality && seen[n - 3] === quality
                ? "exit_stagnation"
                : n >= 5
                  ? "exit_max"
                  : "continue";
          expect(response).toMatchObject({ outcome: expected, iteration: i + 1 });
          if (expected !== "continue") {
            expect(run.state.iteration_outcome.get("refine")).toBe(expected);
            expect(run.state.active_iteration).toBeNull();
            return;
          }
        }
        expect(run.state.active_iteration?.count).toBe(qualities.length);
      }),
      { numRuns: 200 },
    );
  });
});
