import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareCodePoints,
  cpAt,
  cpIndexOf,
  cpLength,
  cpSlice,
  isAscii,
  toCodePoints,
} from "../../../stdlib/values/strings";

describe("code-point helpers", () => {
  const s = "a😀e\u0301\ud800z";
  it("count, index and slice by code point (lone surrogates count once)", () => {
    expect(cpLength(s)).toBe(6);
    expect(toCodePoints(s)).toEqual(["a", "😀", "e", "\u0301", "\ud800", "z"]);
    expect(cpAt(s, 1)).toBe("😀");
    expect(cpAt(s, 4)).toBe("\ud800");
    expect(cpAt(s, 6)).toBeUndefined();
    expect(cpSlice(s, 1, 3)).toBe("😀e");
    expect(cpSlice("abc", 1, 10)).toBe("bc");
    expect(isAscii("abc~\x7f")).toBe(true);
    expect(isAscii("é")).toBe(false);
  });
  it("finds substrings without splitting surrogate pairs", () => {
    expect(cpIndexOf("x😀", "\ud83d")).toBe(-1);
    expect(cpIndexOf("x😀\ude00", "\ude00")).toBe(3);
    expect(cpIndexOf("x😀", "😀")).toBe(1);
    expect(cpIndexOf("abc", "")).toBe(0);
  });
});

describe("compareCodePoints orders like Python (by code point)", () => {
  const reference = (a: string, b: string): number => {
    const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
    const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
    }
    return x.length - y.length;
  };
  const chars = fc.constantFrom(
    "a",
    "B",
    "\ue000",
    "\uffff",
    "😀",
    "\u{10000}",
    "\ud800",
    "\udc00",
    "\ud83d",
    "é",
  );
  const text = fc.array(chars, { maxLength: 6 }).map((cs) => cs.join(""));

  it("examples", () => {
    expect(compareCodePoints("B", "a")).toBeLessThan(0);
    expect(compareCodePoints("\ue000", "😀")).toBeLessThan(0); // UTF-16 order would say the opposite
    expect(compareCodePoints("\ud800\ue000", "\u{10000}")).toBeLessThan(0);
    expect(compareCodePoints("ab", "ab")).toBe(0);
  });

  it("agrees with a code-point array comparison", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(reference(a, b)));
      }),
      { numRuns: 3000 },
    );
  });
});
