// Property tests: round() against an independent exact rounding, int()/float() parsing round trips,
// sorted() order and stability.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFloatString, parseIntString } from "../../../stdlib/builtins/parse-number";
import { roundFloatDigits } from "../../../stdlib/builtins/round";
import { stableSort } from "../../../stdlib/builtins/sort";
import { floatRepr } from "../../../stdlib/values/repr";

/** The digit after position n of the exact decimal expansion is 5 and nothing follows: a tie. */
function isTie(x: number, n: number): boolean {
  const [, fraction = ""] = Math.abs(x).toFixed(100).split(".");
  return fraction[n] === "5" && /^0*$/.test(fraction.slice(n + 1));
}

describe("round(x, n) on the exact binary value", () => {
  it("agrees with toFixed (exact, ties away from zero) except on exact ties", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e15, max: 1e15, noNaN: true }),
        fc.integer({ min: 0, max: 15 }),
        (x, n) => {
          fc.pre(Math.abs(x) >= 1e-6 || x === 0);
          fc.pre(!isTie(x, n));
          const expected = Number(x.toFixed(n));
          expect(Object.is(roundFloatDigits(x, n), expected) || roundFloatDigits(x, n) === expected).toBe(
            true,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });
  it("rounds exact ties to even", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (k) => {
        const x = k + 0.5;
        const even = k % 2 === 0 ? k : k + 1;
        expect(roundFloatDigits(x, 0)).toBe(even === 0 && x < 0 ? -0 : even);
      }),
    );
  });
});

describe("int() and float() parsing", () => {
  it("parses decimal integers of any size, with single underscores", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.boolean(), (n, underscores) => {
        const digits = (n < 0n ? -n : n).toString();
        const text = `${n < 0n ? "-" : ""}${underscores ? digits.split("").join("_") : digits}`;
        expect(BigInt(parseIntString(`  ${text}\n`))).toBe(n);
      }),
    );
  });
  it("round-trips every double through its Python repr", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        expect(Object.is(parseFloatString(floatRepr(x)), x)).toBe(true);
      }),
    );
  });
});

describe("sort", () => {
  const byKey = (a: [number, number], b: [number, number]) => a[0] < b[0];
  it("orders and keeps equal elements in input order, also reversed", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer()), { maxLength: 200 }),
        fc.boolean(),
        (pairs, reverse) => {
          const tagged = pairs.map((p, i): [number, number] => [p[0], i]);
          const sorted = stableSort(tagged, byKey, reverse);
          const expected = [...tagged].sort((a, b) => (reverse ? b[0] - a[0] : a[0] - b[0]) || a[1] - b[1]);
          expect(sorted).toEqual(expected);
        },
      ),
    );
  });
  it("does not modify its input", () => {
    const input = [3, 1, 2];
    stableSort(input, (a, b) => a < b, false);
    expect(input).toEqual([3, 1, 2]);
  });
});
