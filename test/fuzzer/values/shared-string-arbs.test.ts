// The plain string generators of fuzzer/values/json-arbs.ts are built once and shared by every
// string field (building fast-check's grapheme strings costs milliseconds each). Sharing must not
// change what a seed draws: the values are those of generators built afresh for each field, as
// they were before, whatever was drawn from the shared ones first.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringArb } from "../../../fuzzer/values/json-arbs";

const EDGE_STRINGS = ["", " ", "a", "0", "-1", "None", "é", "日本語", "😀", "a\nb", "'\"\\"];

/** stringArb as it was written before the generators were shared: every call builds its own. */
function freshStringArb(literals: { strings: readonly string[]; numbers: readonly number[] }) {
  const affixed =
    literals.strings.length === 0
      ? fc.string({ maxLength: 6 })
      : fc
          .tuple(fc.constantFrom(...literals.strings), fc.string({ maxLength: 4 }))
          .map(([lit, tail]) => lit + tail);
  const lengths = literals.numbers.filter((n) => Number.isInteger(n) && n > 8 && n <= 4096);
  const sized =
    lengths.length === 0
      ? fc.string({ maxLength: 8 })
      : fc.tuple(fc.constantFrom(...lengths), fc.constantFrom("a", "0", "f")).map(([n, c]) => c.repeat(n));
  const rest = fc.oneof(
    affixed,
    fc.string({ maxLength: 8 }),
    fc.string({ unit: "grapheme", maxLength: 4 }),
    sized,
  );
  const arbs: fc.WeightedArbitrary<string>[] = [{ arbitrary: fc.constantFrom(...EDGE_STRINGS), weight: 3 }];
  if (literals.strings.length > 0)
    arbs.unshift({ arbitrary: fc.constantFrom(...literals.strings), weight: 4 });
  arbs.push({ arbitrary: rest, weight: 2 });
  return fc.oneof(...arbs);
}

describe("shared string generators", () => {
  it("draw, for any seed and literals, what generators built afresh draw", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.uniqueArray(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 100 }), { maxLength: 3 }),
        (seed, strings, numbers) => {
          const literals = { strings: [...strings].sort(), numbers: [...numbers].sort((a, b) => a - b) };
          // Draws from the shared generators first, under another seed.
          fc.sample(stringArb(literals), { seed: seed ^ 1, numRuns: 5 });
          const shared = fc.sample(stringArb(literals), { seed, numRuns: 20 });
          expect(shared).toEqual(fc.sample(freshStringArb(literals), { seed, numRuns: 20 }));
        },
      ),
      { numRuns: 25 },
    );
  });
});
