// A step's results when the decider has no pool of its own (exhaustive paths): the n-th draw of the
// step is the n-th of the solver's conforming candidates, round and round; the drawn candidates come
// after the derived ones, so a run that stays within the derived ones never asks for them.
import { describe, expect, it, vi } from "vitest";
import { driveRun } from "../../../fuzzer/run/driver";
import { ScriptedDecider, setupOf } from "../support/scripted-run";

const loop = (maxIterations: number) => `version: "0.2"
contracts:
  Verdict:
    verdict: { type: string, values: [approve, reject, revise, defer, escalate] }
    score: { type: integer }
flows:
  main:
    input: {}
    steps:
      - id: review
        intent: "Review it"
        inputs: {}
        output_contract: Verdict
        max_iterations: ${maxIterations}
`;

/** The results the run reported for `review`, in order (iteration reports, then the step's result). */
function reported(calls: readonly { tool: string; arguments: Record<string, unknown> }[]): unknown[] {
  return calls
    .filter((c) => c.tool === "stratum_iteration_report" || c.tool === "stratum_step_done")
    .map((c) => c.arguments.result);
}

describe("pool values of exhaustive paths", () => {
  it("are the conforming candidates in order, round and round, past the derived ones too", async () => {
    const setup = setupOf(loop(40));
    const step = setup.target.spec.flows.get("main")!.stepById.get("review")!;
    const list = setupOf(loop(40)).solver.conforming(step);
    expect(setup.solver.derivedCount(step)).toBeLessThan(30);
    const run = await driveRun(setup, new ScriptedDecider([]));
    const results = reported(run.calls);
    expect(results.length).toBeGreaterThan(setup.solver.derivedCount(step));
    expect(results).toEqual(results.map((_, n) => list[n % list.length]!.plain));
  });

  it("come from the derived candidates without drawing while the run stays within them", async () => {
    const setup = setupOf(loop(2));
    const step = setup.target.spec.flows.get("main")!.stepById.get("review")!;
    const derived = setup.solver.firstCandidates(step);
    expect(derived.length).toBe(setup.solver.derivedCount(step));
    const conforming = vi.spyOn(setup.solver, "conforming");
    const run = await driveRun(setup, new ScriptedDecider([]));
    const results = reported(run.calls);
    expect(results.length).toBeGreaterThan(1);
    expect(results.length).toBeLessThanOrEqual(derived.length);
    expect(results).toEqual(derived.slice(0, results.length).map((c) => c.plain));
    expect(conforming).not.toHaveBeenCalled();
    expect(setup.solver.conforming(step).slice(0, derived.length)).toEqual(derived);
  });
});
