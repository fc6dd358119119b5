// A property reads the output the interpreter accepted for a step, however the step was accepted:
// a parallel step's aggregate, a sub-flow's output, a result served from the cache, an accumulating
// loop's merged fields. For each of the four, a property the runs break is violated (with a witness
// that replays) and one they cannot break holds — a real verdict, never `suspect` for want of the
// output.
import { describe, expect, it } from "vitest";
import { fuzzSpec, fuzzTransport, replayCounterexample } from "../../fuzzer/index";
import { CACHED, CASES } from "./support/accepted-output-specs";

describe("a property over an output the step's own result does not show", () => {
  it.each(CASES)(
    "judges %s: violated with a witness that replays, and held",
    async (_, spec, broken, lastCall, held, verdict) => {
      for (const seed of [1, 7]) {
        const { report } = await fuzzSpec(spec, { seed, runs: 40 });
        const findings = report?.findings.filter((f) => f.code === "FUZZ-PROPERTY-VIOLATED") ?? [];
        expect(findings.map((f) => f.message)).toEqual([expect.stringContaining(`property '${broken}'`)]);
        expect(report?.properties[broken]?.verdict).toBe("violated");
        expect(report?.properties[held]?.verdict).toBe(verdict);
        const calls = findings[0]?.counterexample?.calls ?? [];
        expect(calls.at(-1)?.tool).toBe(lastCall);
        const replay = await replayCounterexample(spec, calls, fuzzTransport(spec), {
          code: "FUZZ-PROPERTY-VIOLATED",
          flow: "main",
        });
        expect(replay.judged).toBe(true);
        expect(replay.reproduced).toBe(true);
      }
    },
    120_000,
  );

  it("serves the cached step in the revise round without asking the agent again", async () => {
    const { report } = await fuzzSpec(CACHED, { seed: 1, runs: 40 });
    const [finding] = report?.findings ?? [];
    const calls = finding?.counterexample?.calls ?? [];
    expect(calls.map((c) => `${c.tool} ${String(c.arguments.step_id ?? "")}`)).toEqual([
      "stratum_plan ",
      "stratum_step_done sum",
      "stratum_gate_resolve check",
    ]);
    expect(calls[2]?.arguments.outcome).toBe("revise");
  });
});
