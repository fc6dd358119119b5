// The fuzzer's own control verdicts (staticControl: false) against the checker's control model on
// random control-only flows: where the fuzzer explored every path, a flow the model says never
// completes is `violated` and one that completes is not; the steps the fuzzer never dispatched are
// exactly the model's dead steps; and the fuzzer never claims `proven` for an option to complete
// the model refutes. (The skip_if that reads a file is left out: the fuzzer's virtual files make
// every path exist, which is data, not control.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec, controlSoundness } from "../../checker/index";
import { fuzzChecked } from "../../fuzzer/index";
import { flowGenOf, specText } from "../checker/control/random-flows";

describe("the fuzzer's control verdicts agree with the checker's control model", () => {
  it("on random control-only flows", { timeout: 120_000 }, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(flowGenOf(false), async (flow) => {
        const { text } = specText(flow);
        const check = checkSpec(text, { suppressions: false });
        fc.pre(check.valid && check.ir !== null);
        const model = controlSoundness(check.ir!).flows.get("f")!;
        fc.pre(model.decided);
        const { report } = await fuzzChecked(check, { runs: 10, staticControl: false });
        const own = report!.soundness.f!;
        if (!model.optionToComplete) expect(own.option_to_complete, text).not.toBe("proven");
        fc.pre(report!.exhaustive);
        compared++;
        const dead = report!.findings.filter((f) => f.code === "FUZZ-DEAD-STEP").map((f) => f.step);
        expect({ neverCompletes: own.option_to_complete === "violated", dead: dead.sort() }, text).toEqual({
          neverCompletes: !model.completes,
          dead: model.deadSteps.map((d) => d.step).sort(),
        });
      }),
      { numRuns: 40, seed: 20_261_205 },
    );
    expect(compared).toBeGreaterThan(15);
  });
});
