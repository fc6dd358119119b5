// The fuzzer plays scored iterations (docs/reference/runtime.md §25.2): in a loop with `score_expr`
// the agent's reports go up, down, stay on a plateau, or give no number, so the best entry (a tie
// keeps the earlier one), the early stop on a plateau and the score errors are all reached.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";
import { ScenarioDecider } from "../../fuzzer/run/decider";
import { driveRun } from "../../fuzzer/run/driver";
import type { ScoreMove } from "../../fuzzer/solver";
import { ScriptedDecider, setupOf } from "./support/scripted-run";

const SPEC = `version: "0.2"
contracts:
  Draft:
    quality: { type: integer }
    text: { type: string }
functions:
  improve:
    mode: infer
    intent: "Improve the draft"
    input: {}
    output: Draft
    ensure:
      - "result.quality > 2"
flows:
  main:
    input: {}
    steps:
      - id: refine
        function: improve
        inputs: {}
        max_iterations: 6
        score_expr: "result.quality"
`;

const NON_NUMERIC = SPEC.replace(`score_expr: "result.quality"`, `score_expr: "result.rating"`).replace(
  "    text: { type: string }\n",
  "    text: { type: string }\n    rating: { type: number, required: false }\n",
);

/** The quality of each report of the first loop (before the step's first stratum_step_done). */
function firstLoop(calls: readonly { tool: string; arguments: Record<string, unknown> }[]): number[] {
  const end = calls.findIndex((c) => c.tool === "stratum_step_done");
  return calls
    .slice(0, end < 0 ? calls.length : end)
    .filter((c) => c.tool === "stratum_iteration_report")
    .map((c) => (c.arguments.result as { quality: number }).quality);
}

describe("a scored loop", () => {
  it("goes up, down and stays as the agent chooses", async () => {
    const setup = setupOf(SPEC);
    const run = await driveRun(setup, new ScriptedDecider(["iterate", "up", "up", "down", "same", "abort"]));
    const q = firstLoop(run.calls);
    expect(q).toHaveLength(4);
    expect(q[1]!).toBeGreaterThan(q[0]!);
    expect(q[2]!).toBeLessThan(q[1]!);
    expect(q[3]).toBe(q[2]);
    expect(run.observations).toEqual([]);
  });

  it("stops early on a plateau (exit_stagnation) without an exit_criterion", async () => {
    const setup = setupOf(SPEC);
    const script = ["iterate", "up", "up", "same", "same", "same", "same", "same"];
    const run = await driveRun(setup, new ScriptedDecider(script));
    // Scores 1, 2, 2, 2, 2: two earlier iterations, none beats the best, and the best (the second)
    // is three iterations old at the fifth report, which stops the loop (no abort).
    expect(firstLoop(run.calls)).toEqual([1, 2, 2, 2, 2]);
    const end = run.calls.findIndex((c) => c.tool === "stratum_step_done");
    expect(run.calls.slice(0, end).some((c) => c.tool === "stratum_iteration_abort")).toBe(false);
  });

  it("reports results whose score is no number where score_expr allows it", async () => {
    const setup = setupOf(NON_NUMERIC);
    const run = await driveRun(setup, new ScriptedDecider(["iterate", "none", "abort"]));
    const [first] = run.calls.filter((c) => c.tool === "stratum_iteration_report");
    expect((first!.arguments.result as Record<string, unknown>).rating ?? null).toBeNull();
  });

  it("offers no score moves to a loop without score_expr", async () => {
    const setup = setupOf(SPEC.replace(`        score_expr: "result.quality"\n`, ""));
    const decider = new ScriptedDecider(["iterate", "abort"]);
    await driveRun(setup, decider);
    const iterationChoice = decider.offered.find((o) => o.includes("abort"))!;
    expect(iterationChoice).toEqual(["pool", "repeat", "abort"]);
  });

  it("property: each move's report scores as it says, against the previous report", async () => {
    const setup = setupOf(SPEC);
    const step = setup.target.spec.flows.get("main")!.steps[0]!;
    const none = { input: () => undefined, stepOutput: () => undefined };
    const scores = setup.solver.conforming(step).map((c) => setup.solver.scoreOfReport(step, c.plain, none)!);
    const [lowest, highest] = [Math.min(...scores), Math.max(...scores)];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<ScoreMove>("up", "down", "same"), { minLength: 1, maxLength: 5 }),
        async (moves) => {
          const run = await driveRun(setup, new ScriptedDecider(["iterate", ...moves, "abort"]));
          const q = firstLoop(run.calls);
          for (let i = 1; i < q.length; i++) {
            // Up and down are the nearest score past the previous one, unless none is past it.
            if (moves[i] === "up") expect(q[i - 1] === highest || q[i]! > q[i - 1]!).toBe(true);
            if (moves[i] === "down") expect(q[i - 1] === lowest || q[i]! < q[i - 1]!).toBe(true);
            if (moves[i] === "same") expect(q[i]).toBe(q[i - 1]);
          }
        },
      ),
      { numRuns: 25, seed: 3 },
    );
  });

  it("random runs reach the early stop on a plateau, and fuzzing finds nothing wrong", async () => {
    const { report } = await fuzzSpec(SPEC, { runs: 60 });
    expect(report!.findings).toEqual([]);
    const setup = setupOf(SPEC);
    let stoppedEarly = 0;
    for (let seed = 0; seed < 40; seed++) {
      const tape = Array.from({ length: 20 }, (_, i) => ((seed + 1) * 7919 * (i + 3)) % 1000);
      const run = await driveRun(setup, new ScenarioDecider({ inputs: {}, tape, pools: {} }));
      // The first loop ended by the engine (no abort) before max_iterations: the plateau stop.
      const end = run.calls.findIndex((c) => c.tool === "stratum_step_done");
      const loop = run.calls.slice(0, end);
      const reports = loop.filter((c) => c.tool === "stratum_iteration_report").length;
      if (end > 0 && reports > 0 && reports < 6 && !loop.some((c) => c.tool === "stratum_iteration_abort"))
        stoppedEarly++;
    }
    expect(stoppedEarly).toBeGreaterThan(0);
  });
});
