// A property over data (a step's output, an input drawn once) is never `proven` by exhaustive
// mode, which enumerates control paths, not values: it is `not_refuted` with a note saying why, or
// `violated` when some run broke it. Properties over the control state, or over an input whose
// finite domain was enumerated in full, are still proven. The values a property compares (and
// their neighbours) are tried on every seed, so a data violation does not depend on the seed.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";

const ENSURE_POST = readFileSync(
  resolve(import.meta.dirname, "blind-properties/ensure-post/spec.stratum.yaml"),
  "utf8",
);

const SEEDS = [1, 2, 3];

const NEVER_ZERO = `version: "0.2"
contracts:
  R:
    n: {type: integer}
flows:
  main:
    input:
      mode: {type: string, values: [fast, slow]}
      limit: {type: integer}
    steps:
      - id: a
        intent: "Count"
        output_contract: R
properties:
  never_zero:
    flow: main
    never: "$.steps.a.output.n == 0"
  ends:
    flow: main
    eventually: "$.flow.status == 'complete'"
  mode_known:
    flow: main
    always: "$.input.mode in ['fast', 'slow']"
  limit_small:
    flow: main
    always: "$.input.limit < 1000000"
`;

describe("property verdicts over data", () => {
  it.each(SEEDS)("never proves a property over a step output or a drawn input (seed %i)", async (seed) => {
    const { report } = await fuzzSpec(NEVER_ZERO, { seed, runs: 20 });
    const p = report?.properties ?? {};
    expect(p.never_zero?.verdict).not.toBe("proven");
    expect(p.limit_small?.verdict).not.toBe("proven");
    expect(p.ends?.verdict).toBe("proven");
    expect(p.mode_known?.verdict).toBe("proven");
    if (p.limit_small?.verdict === "not_refuted")
      expect(p.limit_small.note).toContain("reads data the paths do not enumerate ($.input.limit)");
  });

  it.each(SEEDS)(
    "finds the output the property compares on every seed, with few runs (seed %i)",
    async (seed) => {
      const { report } = await fuzzSpec(NEVER_ZERO, { seed, runs: 5 });
      expect(report?.properties.never_zero?.verdict).toBe("violated");
      const finding = report?.findings.find((f) => f.code === "FUZZ-PROPERTY-VIOLATED");
      const last = finding?.counterexample?.calls.at(-1);
      expect(last?.arguments.result).toEqual({ n: 0 });
    },
  );

  it.each(SEEDS)("finds a perfect score and a negative limit at 20 runs (seed %i)", async (seed) => {
    const { report } = await fuzzSpec(ENSURE_POST, { seed, runs: 20 });
    expect(report?.properties.score_not_perfect?.verdict).toBe("violated");
    expect(report?.properties.negative_limit_never_completes?.verdict).toBe("violated");
    // Held on every run, but about data: not proven.
    expect(report?.properties.latency_bounded).toMatchObject({ verdict: "not_refuted" });
  });
});
