// Python's character predicates and digit values, against flags recorded from CPython 3.11.
import { describe, expect, it } from "vitest";
import {
  decimalValue,
  isAlnumChar,
  isAlphaChar,
  isDecimalChar,
  isDigitChar,
  isSpaceCp,
} from "../../../stdlib/builtins/unicode";
import { UNICODE_FLAGS } from "./unicode-flags.generated";

function flags(cp: number): string {
  const ch = String.fromCodePoint(cp);
  return [isDigitChar(ch) && "d", isAlphaChar(ch) && "a", isSpaceCp(cp) && "s", isAlnumChar(ch) && "n"]
    .map((x) => x || ".")
    .join("");
}

describe("Unicode predicates", () => {
  it("match CPython for a sample of code points", () => {
    const wrong = UNICODE_FLAGS.filter(([cp, expected]) => flags(cp) !== expected).map(
      ([cp, expected]) => `U+${cp.toString(16)}: ${flags(cp)} ≠ ${expected}`,
    );
    expect(wrong).toEqual([]);
  });
  it("give the value of every decimal digit", () => {
    expect(decimalValue(0x30)).toBe(0);
    expect(decimalValue(0x39)).toBe(9);
    expect(decimalValue(0x663)).toBe(3); // ARABIC-INDIC DIGIT THREE
    expect(decimalValue(0x1d7ce)).toBe(0); // MATHEMATICAL BOLD DIGIT ZERO (start of a run of 50)
    expect(decimalValue(0x1d7ff)).toBe(9);
    expect(decimalValue(0x1d7d8)).toBe(0);
    expect(isDecimalChar("²")).toBe(false);
    expect(isDigitChar("²")).toBe(true);
  });
});
