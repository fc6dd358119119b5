// The fuzzer's grapheme unit (fuzzer/values/grapheme-unit.ts) must be fast-check's "grapheme" unit
// in all but its cost: the same value for every number, the same values accepted, the same draws
// from every seed and the same shrinks of a value met without its context. These fail when an
// upgrade of fast-check changes its tables (then run `node scripts/gen-grapheme-ranges.mjs`).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AUTONOMOUS_COUNT,
  GRAPHEME_COUNT,
  GRAPHEME_UNIT,
  graphemeAt,
  graphemeNumber,
} from "../../../fuzzer/values/grapheme-unit";

const theirs = (maxLength: number) => fc.string({ unit: "grapheme", maxLength });
const ours = (maxLength: number) => fc.string({ unit: GRAPHEME_UNIT, maxLength });

describe("the fuzzer's grapheme unit", () => {
  it("numbers every grapheme fast-check's unit makes, and only those, each to itself", () => {
    const one = theirs(1);
    let decomposedCodePoints = Number.POSITIVE_INFINITY;
    for (let n = 0; n < GRAPHEME_COUNT; n++) {
      const g = graphemeAt(n);
      if (graphemeNumber(g) !== n || !one.canShrinkWithoutContext(g)) {
        throw new Error(`grapheme ${n} (${JSON.stringify(g)}) is not fast-check's, or not numbered ${n}`);
      }
      if (n >= AUTONOMOUS_COUNT) decomposedCodePoints = Math.min(decomposedCodePoints, [...g].length);
    }
    expect(GRAPHEME_COUNT).toBeGreaterThan(30_000);
    // A decomposed grapheme never has a single code point, so none is also an autonomous one.
    expect(decomposedCodePoints).toBeGreaterThanOrEqual(2);
    for (const bad of ["", "ab", "\u0000", "\ud800", "\u0301", "e\u0301x", 42, null]) {
      expect(() => graphemeNumber(bad)).toThrow(/not a grapheme/);
      if (typeof bad === "string" && bad !== "") expect(one.canShrinkWithoutContext(bad)).toBe(false);
    }
  });

  it("draws what fast-check's unit draws, from any seed", () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(1, 4, 40), (seed, maxLength) => {
        const params = { seed, numRuns: 50 };
        expect(fc.sample(ours(maxLength), params)).toEqual(fc.sample(theirs(maxLength), params));
      }),
      { numRuns: 60 },
    );
  });

  it("accepts and shrinks a value met without its context as fast-check's unit does", () => {
    fc.assert(
      fc.property(
        fc.oneof(theirs(6), fc.string({ maxLength: 6 }), fc.string({ unit: "binary", maxLength: 4 })),
        (s) => {
          expect(ours(6).canShrinkWithoutContext(s)).toBe(theirs(6).canShrinkWithoutContext(s));
          if (!theirs(6).canShrinkWithoutContext(s)) return;
          const shrinks = (arb: fc.Arbitrary<string>) =>
            [...arb.shrink(s, undefined).take(30)].map((v) => v.value);
          expect(shrinks(ours(6))).toEqual(shrinks(theirs(6)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
