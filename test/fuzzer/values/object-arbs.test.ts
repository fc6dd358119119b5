// Objects are drawn as one tuple mapped once (objectArb), not as a tuple of [name, value] pairs
// mapped into objectOf, and a contract's result is merged with its schema's by `merged`, not by a
// spread: the same seed must draw the same objects (keys, order, values, `__proto__` an own key)
// and shrink them the same way, or every fuzz report would change.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ABSENT, type Maybe, merged, objectArb, objectOf } from "../../../fuzzer/values/json-arbs";

const NAMES = ["a", "b", "__proto__", "constructor", "0", "10", "x y"];

/** A field's value arbitrary, by kind (each kind may leave the field out). */
function fieldArb(kind: number): fc.Arbitrary<Maybe> {
  switch (kind) {
    case 0:
      return fc.integer();
    case 1:
      return fc.option(fc.string({ maxLength: 3 }), { nil: ABSENT as Maybe });
    case 2:
      return fc.constant(ABSENT);
    default:
      return fc.oneof(fc.constant(ABSENT), fc.constant(null), fc.array(fc.boolean(), { maxLength: 2 }));
  }
}

const fields = fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.nat(3)), { maxLength: 6 });

/** Own keys in order, their values, and the prototype: what a spread or fromEntries would show. */
function shape(o: unknown): unknown {
  if (o === null || typeof o !== "object") return o;
  return { proto: Object.getPrototypeOf(o), entries: Object.entries(o) };
}

describe("objects drawn by objectArb", () => {
  it("are, seed by seed, the objectOf of the pairs' tuple, and shrink alike", () => {
    fc.assert(
      fc.property(fields, fc.integer(), (fs, seed) => {
        const names = fs.map(([n]) => n);
        const arbs = fs.map(([, k]) => fieldArb(k));
        const pairs = fc.tuple(...arbs.map((a, i) => a.map((v) => [names[i]!, v] as const))).map(objectOf);
        const mine = objectArb(names, arbs);
        const a = fc.sample(pairs, { seed, numRuns: 20 }).map(shape);
        const b = fc.sample(mine, { seed, numRuns: 20 }).map(shape);
        expect(b).toEqual(a);
        // Shrinking: the same counterexample after the same shrinks, for a property both fail.
        const fails = (o: Record<string, unknown>) => Object.keys(o).length < 2;
        const ra = fc.check(fc.property(pairs, fails), { seed, numRuns: 50 });
        const rb = fc.check(fc.property(mine, fails), { seed, numRuns: 50 });
        expect(rb.failed).toBe(ra.failed);
        expect(rb.numShrinks).toBe(ra.numShrinks);
        expect(rb.counterexamplePath).toBe(ra.counterexamplePath);
        expect((rb.counterexample ?? []).map(shape)).toEqual((ra.counterexample ?? []).map(shape));
      }),
      { numRuns: 200 },
    );
  });
});

describe("merged", () => {
  it("is the spread of its two objects: keys, order, values, own `__proto__`", () => {
    const obj = fc
      .array(fc.tuple(fc.constantFrom(...NAMES), fc.integer()), { maxLength: 5 })
      .map((entries) => Object.fromEntries(entries) as Record<string, unknown>);
    fc.assert(
      fc.property(obj, obj, (a, b) => {
        expect(shape(merged(a, b))).toEqual(shape({ ...a, ...b }));
      }),
    );
  });
});
