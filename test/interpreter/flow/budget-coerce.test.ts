// The coercions of run budgets (interpreter/flow/budget.ts, py-numbers.ts) against what Python's
// int() and float() do in the reference's nonneg_int / nonneg_float: every row's expected value
// is what those two functions (run_budget.py at 63fc11d, copied) gave under python3. Python's
// int(float("inf")) raises OverflowError, which the reference does not catch; we count 0.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nonnegFloat, nonnegInt } from "../../../interpreter/flow/budget";
import { parsePyFloat, parsePyInt } from "../../../interpreter/flow/py-numbers";
import { PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";

const f = (v: number) => new PyFloat(v);

describe("nonnegInt mirrors max(int(x), 0) with failures as 0", () => {
  const rows: [string, PyValue | undefined, number][] = [
    ["an int", 12, 12],
    ["zero", 0, 0],
    ["a negative int", -500, 0],
    ["True", true, 1],
    ["False", false, 0],
    ["a float is truncated", f(1.9), 1],
    ["a negative float truncates toward zero", f(-0.5), 0],
    ["NaN (ValueError)", f(Number.NaN), 0],
    ["inf (OverflowError in Python: no int)", f(Number.POSITIVE_INFINITY), 0],
    ["an integer string", "12", 12],
    ["a string with spaces and sign", " +7 ", 7],
    ["underscores between digits", "1_000", 1000],
    ["a float string (ValueError)", "1.5", 0],
    ["a word", "many", 0],
    ["the empty string", "", 0],
    ["a misplaced underscore", "_1", 0],
    ["None", null, 0],
    ["absent", undefined, 0],
    ["a list", [1], 0],
    ["a dict", new PyDict(), 0],
    ["a big int", 2n ** 60n, 2 ** 60],
  ];
  it.each(rows)("%s", (_name, input, expected) => {
    expect(nonnegInt(input)).toBe(expected);
  });
});

describe("nonnegFloat mirrors float(x) kept only when finite and ≥ 0", () => {
  const rows: [string, PyValue | undefined, number][] = [
    ["a float", f(0.5), 0.5],
    ["an int", 3, 3],
    ["True", true, 1],
    ["a negative float", f(-0.1), 0],
    ["NaN", f(Number.NaN), 0],
    ["the string NaN", "NaN", 0],
    ["the string inf", "inf", 0],
    ["the string -Infinity", "-Infinity", 0],
    ["an exponent string", "1e3", 1000],
    ["a leading dot", ".5", 0.5],
    ["a trailing dot", "5.", 5],
    ["underscores", "1_0.2_5", 10.25],
    ["spaces", "  2.5\n", 2.5],
    ["a word", "x", 0],
    ["a hex string (ValueError)", "0x10", 0],
    ["None", null, 0],
    ["a list", [], 0],
  ];
  it.each(rows)("%s", (_name, input, expected) => {
    expect(nonnegFloat(input)).toBe(expected);
  });
});

describe("the text parsers", () => {
  it("read every integer's decimal text back", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (n) => {
        expect(parsePyInt(String(n))).toBe(n);
        expect(parsePyFloat(String(n))).toBe(n);
      }),
    );
  });

  it("read every finite double's shortest text back", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        // JS writes 1e+21 as Python would accept it; String(-0) is "0".
        expect(parsePyFloat(String(x))).toBe(x === 0 ? 0 : x);
      }),
    );
  });

  it("never accept what has no digit", () => {
    for (const t of ["", " ", "+", "-", ".", "e5", "_", "1__0", "1e", "in f"]) {
      expect([t, parsePyInt(t)]).toEqual([t, null]);
      expect([t, parsePyFloat(t)]).toEqual([t, null]);
    }
  });
});
