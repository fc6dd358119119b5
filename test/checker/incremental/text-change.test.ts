import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changeBetween, changeDelta } from "../../../checker/incremental/text-change";

describe("changeBetween", () => {
  it("finds the replaced region between the common prefix and suffix", () => {
    expect(changeBetween("the smallest change", "the simplest change")).toEqual({
      start: 5,
      oldEnd: 8,
      newEnd: 8,
    });
    expect(changeBetween("abc", "abc")).toEqual({ start: 3, oldEnd: 3, newEnd: 3 });
    expect(changeBetween("", "xy")).toEqual({ start: 0, oldEnd: 0, newEnd: 2 });
    expect(changeBetween("a: 1\n", "a: 12\n")).toEqual({ start: 4, oldEnd: 4, newEnd: 5 });
  });

  it("never lets the suffix overlap the prefix (repeated characters)", () => {
    expect(changeBetween("aaa", "aaaa")).toEqual({ start: 3, oldEnd: 3, newEnd: 4 });
    expect(changeBetween("aaaa", "aa")).toEqual({ start: 2, oldEnd: 4, newEnd: 2 });
    expect(changeDelta(changeBetween("aaaa", "aa"))).toBe(-2);
  });

  it("describes every pair of texts exactly (property)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\n", " ", "é", "\u{1F600}"), maxLength: 30 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const c = changeBetween(before, after);
        expect(c.start).toBeLessThanOrEqual(c.oldEnd);
        expect(c.start).toBeLessThanOrEqual(c.newEnd);
        expect(before.slice(0, c.start) + after.slice(c.start, c.newEnd) + before.slice(c.oldEnd)).toBe(
          after,
        );
        expect(before.length - c.oldEnd).toBe(after.length - c.newEnd);
      }),
      { numRuns: 1000 },
    );
  });
});
