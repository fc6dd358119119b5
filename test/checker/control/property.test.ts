// The control model against the real interpreter: random control-only flows (inline steps with or
// without a check, next, on_fail, retries; gates with their routes and a policy; constant and
// non-constant skip_if; max_rounds), whose static verdicts must equal what driving the
// interpreter through every choice finds (ground-truth.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { groundTruth } from "./ground-truth";
import { flowGen, specText } from "./random-flows";
import { CONTROL_CODES, verdict } from "./support";

describe("control model = the interpreter driven through every choice", () => {
  it("completes, option to complete and dead steps agree", { timeout: 60_000 }, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(flowGen, async (flow) => {
        const { text, files } = specText(flow);
        const checked = checkSpec(text, { suppressions: false });
        const others = checked.errors.filter((d) => !CONTROL_CODES.has(d.code));
        fc.pre(others.length === 0);
        const truth = await groundTruth(text, files, 80);
        fc.pre(truth !== null);
        if (truth === null) return;
        compared++;
        const v = verdict(text);
        const ids = flow.steps.map((_, i) => `s${i}`);
        const dead = ids.filter((s) => !truth.dispatched.has(s));
        expect(
          {
            completes: v.completes,
            optionToComplete: v.optionToComplete,
            dead: v.deadSteps.map((d) => d.step),
          },
          text,
        ).toEqual({ completes: truth.completes, optionToComplete: truth.optionToComplete, dead });
      }),
      { numRuns: 50, seed: 20_261_205 },
    );
    expect(compared).toBeGreaterThan(25);
  });
});
