import { describe, expect, it } from "vitest";
import { type BinaryOperator, binaryOp, unaryOp } from "../../../stdlib/values/arithmetic";
import { Budget } from "../../../stdlib/values/budget";
import { PyError } from "../../../stdlib/values/errors";
import { repr } from "../../../stdlib/values/repr";
import { big, f, show } from "./support";
import { ARITHMETIC_ROWS } from "./tables/arith";

describe("binaryOp / unaryOp against CPython", () => {
  it.each(ARITHMETIC_ROWS.map((r) => [r[0], repr(r[1]), repr(r[2]), r] as const))(
    "%s %s %s",
    (_o, _a, _b, row) => {
      const [op, a, b, expected] = row;
      const outcome =
        op === "u-" || op === "u+"
          ? show(() => unaryOp(op === "u-" ? "-" : "+", a))
          : show(() => binaryOp(op as BinaryOperator, a, b));
      expect(outcome).toBe(expected);
    },
  );
});

describe("spec examples (docs/reference/language.md §10.8.5, docs/reference/language.md §10.8.11)", () => {
  const cases: [
    BinaryOperator,
    ReturnType<typeof f> | number | boolean,
    ReturnType<typeof f> | number | boolean,
    string,
  ][] = [
    ["/", 7, 2, "3.5"],
    ["//", 7, 2, "3"],
    ["//", -7, 2, "-4"],
    ["%", -7, 2, "1"],
    ["%", 7, -2, "-1"],
    ["/", 2, 2, "1.0"],
    ["%", f(3.5), -2, "-0.5"],
    ["//", f(7.5), 2, "3.0"],
    ["//", f(-7.5), 2, "-4.0"],
    ["//", f(0), -1, "-0.0"],
    ["+", true, true, "2"],
  ];
  it.each(cases)("%s", (op, a, b, expected) => {
    expect(show(() => binaryOp(op, a, b))).toBe(expected);
  });

  it("divides big ints with correct rounding and reports quotients too large for a float", () => {
    expect(show(() => binaryOp("/", big(`${2n ** 2000n}`), big(`${2n ** 1000n}`)))).toBe(
      "1.0715086071862673e+301",
    );
    expect(show(() => binaryOp("/", 1, big(`${2n ** 1074n}`)))).toBe("5e-324");
    expect(show(() => binaryOp("/", 1, big(`${2n ** 1075n}`)))).toBe("0.0");
    expect(show(() => binaryOp("/", big(`${2n ** 1024n - 2n ** 970n}`), 1))).toBe(
      "!OverflowError: integer division result too large for a float",
    );
    expect(show(() => binaryOp("/", big("12345678901234567890123"), big("-98765432109876543")))).toBe(
      "-124999.9988609375",
    );
  });

  it("keeps ints exact past 2^53 and normalises back to numbers", () => {
    const r = binaryOp("-", big("9007199254740993"), 2);
    expect(r).toBe(9007199254740991);
    expect(binaryOp("*", 94906267, 94906267)).toBe(9007199515875289n);
    expect(Object.is(binaryOp("*", 0, -5), 0)).toBe(true);
    expect(Object.is(unaryOp("-", 0), 0)).toBe(true);
    expect(Object.is(binaryOp("%", -4, 2), 0)).toBe(true);
  });
});

describe("budget charges (docs/reference/language.md §10.15)", () => {
  it("rejects a huge repetition before allocating", () => {
    const budget = new Budget();
    const t0 = Date.now();
    expect(() => binaryOp("*", "a", 1_000_000_000, budget)).toThrow(PyError);
    expect(Date.now() - t0).toBeLessThan(100);
    expect(() => binaryOp("*", 1_000_000_000, [1], new Budget())).toThrow(/evaluation budget/);
  });

  it("charges the size of concatenations and repetitions", () => {
    const budget = new Budget();
    binaryOp("+", "ab", "😀c", budget);
    expect(budget.spent).toBe(4);
    binaryOp("*", [1, 2], 3, budget);
    expect(budget.spent).toBe(10);
  });

  it("charges 1 per 64 bits of wide int results only", () => {
    const budget = new Budget();
    binaryOp("+", 1, 2, budget);
    binaryOp("*", big(`${2n ** 60n}`), 4, budget); // 63 bits: free
    expect(budget.spent).toBe(0);
    binaryOp("*", big(`${2n ** 100n}`), big(`${2n ** 100n}`), budget); // 201 bits → 4
    expect(budget.spent).toBe(4);
  });
});
