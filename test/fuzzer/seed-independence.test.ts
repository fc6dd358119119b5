// The agent's look-alikes of real specs (a certificate step before three steps, int() of a string
// field, a pattern, `in` and `len()` tests, a function's ensures) give the same (code, line)
// findings on every seed: what the derived candidates satisfy is never claimed unsatisfiable, and
// the steps after them are never claimed dead; an exit_criterion that reads the loop's iteration
// number and scores is searched with them, so it is claimed never met only when it cannot be.
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";
import { loadCorpus } from "./support/corpus";

const SEEDS = [1, 7, 11, 42, 99];
const CASES = [
  "control-dead-step-3.stratum.yaml",
  "control-ensure-unsatisfiable-3.stratum.yaml",
  "control-ensure-unsatisfiable-4.stratum.yaml",
  "control-ensure-unsatisfiable-5.stratum.yaml",
  "control-ensure-unsatisfiable-6.stratum.yaml",
  "control-exit-never-3.stratum.yaml",
  "control-exit-never-4.stratum.yaml",
  "ensure-raises-8.stratum.yaml",
];

describe("findings that do not depend on the seed", () => {
  const corpus = loadCorpus().filter((c) => CASES.includes(c.name));

  it("has every case", () => {
    expect(corpus.map((c) => c.name).sort()).toEqual([...CASES].sort());
  });

  it.each(corpus.map((c) => [c.name, c] as const))(
    "%s: the same (code, line) findings on seeds 1, 7, 11, 42 and 99",
    async (_name, spec) => {
      for (const seed of SEEDS) {
        const { report } = await fuzzSpec(spec.text, { seed });
        const got = (report?.findings ?? []).map((f) => `${f.code}:${f.line}`).sort();
        const expected = spec.expected.map((e) => `${e.split(" ")[0]}:${e.split(":").at(-1)}`).sort();
        expect(got, `seed ${seed}`).toEqual(expected);
      }
    },
    120_000,
  );

  it.each([
    [
      "ensure-unsatisfiable-1.stratum.yaml",
      "FUZZ-ENSURE-UNSATISFIABLE",
      /\(\d+ derived from the step's shape and expressions and \d+ drawn, each in 12 contexts/,
    ],
    [
      "exit-never-1.stratum.yaml",
      "FUZZ-EXIT-NEVER",
      /\(\d+ derived from the step's shape and expressions and \d+ drawn, with accumulators of/,
    ],
    [
      "exit-never-3.stratum.yaml",
      "FUZZ-EXIT-NEVER",
      /\(\d+ derived from the step's shape and expressions and \d+ drawn, 30 score histories over iterations 1 to 5, in 3 contexts\)/,
    ],
  ] as const)(
    "%s: the claim is made on every seed and says what was searched",
    async (name, code, searched) => {
      const spec = loadCorpus().find((c) => c.name === name)!;
      for (const seed of SEEDS) {
        const { report } = await fuzzSpec(spec.text, { seed });
        const claims = (report?.findings ?? []).filter((f) => f.code === code);
        expect(claims, `seed ${seed}`).toHaveLength(1);
        expect(claims[0]!.message).toMatch(searched);
      }
    },
    120_000,
  );
});
