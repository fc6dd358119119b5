// The Python reference's specs, part 2 of 3: exactly the expected findings on every seed of
// REFERENCE_SEEDS (support/reference-corpus.ts).
import { describe, expect, it } from "vitest";
import { REFERENCE_SEEDS, referenceMismatches, referencePart } from "./support/reference-corpus";

describe("the reference's specs (part 2 of 3)", () => {
  it.each(REFERENCE_SEEDS.map((s) => [s] as const))(
    "seed %i: exactly the expected findings",
    async (seed) => {
      expect(await referenceMismatches(referencePart(1, 3), seed)).toEqual([]);
    },
    600_000,
  );
});
