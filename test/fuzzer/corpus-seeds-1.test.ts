// The corpus acceptance (corpus.test.ts) with five more seeds: group 1 of SEED_GROUPS.
import { describe, expect, it } from "vitest";
import { corpusMismatches, SEED_GROUPS } from "./support/corpus";

describe("the seeded-defect corpus with other seeds (group 1)", () => {
  it.each(SEED_GROUPS[0]!.map((s) => [s] as const))(
    "seed %i: every defect found, no control flagged",
    async (seed) => {
      expect(await corpusMismatches(seed)).toEqual([]);
    },
    300_000,
  );
});
