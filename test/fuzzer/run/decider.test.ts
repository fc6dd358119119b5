// The deciders pick among the options without copying them: the pick is the one the plain
// definition gives (random: weighted over the live options, or all when none is; exhaustive:
// the prefix's index among the enumerated options, else the first option).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Option, ScenarioDecider, TAPE_MAX, TapeDecider } from "../../../fuzzer/run/decider";

const options = fc
  .array(
    fc.record({
      weight: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 })),
      exhaustive: fc.boolean(),
    }),
    { minLength: 1, maxLength: 9 },
  )
  .map((os) => os.map((o, i): Option => ({ name: `o${i}`, ...o })));

function weighted(os: readonly Option[], t: number): string {
  const live = os.filter((o) => o.weight > 0);
  const pick = live.length > 0 ? live : os;
  const total = pick.reduce((s, o) => s + Math.max(o.weight, 1), 0);
  let target = (t / (TAPE_MAX + 1)) * total;
  for (const o of pick) {
    target -= Math.max(o.weight, 1);
    if (target < 0) return o.name;
  }
  return pick[pick.length - 1]!.name;
}

function enumerated(os: readonly Option[], c: number): { name: string; arity: number } {
  const e = os.filter((o) => o.exhaustive);
  const pick = e.length > 0 ? e : os.slice(0, 1);
  return { name: pick[Math.min(c, pick.length - 1)]!.name, arity: pick.length };
}

describe("deciders", () => {
  it("a random run picks by weight among the live options", () => {
    fc.assert(
      fc.property(options, fc.integer({ min: 0, max: TAPE_MAX }), (os, t) => {
        const d = new ScenarioDecider({ inputs: {}, tape: [t], pools: {} });
        expect(d.choose(os)).toBe(weighted(os, t));
      }),
      { numRuns: 500 },
    );
  });

  it("an exhaustive run picks the prefix's enumerated option and records its arity", () => {
    fc.assert(
      fc.property(options, fc.nat(12), (os, c) => {
        const d = new TapeDecider([c], [{}]);
        const want = enumerated(os, c);
        expect(d.choose(os)).toBe(want.name);
        expect(d.arities).toEqual([want.arity]);
        expect(d.choices).toEqual([Math.min(c, want.arity - 1)]);
      }),
      { numRuns: 500 },
    );
  });
});
