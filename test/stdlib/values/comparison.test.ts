import { describe, expect, it } from "vitest";
import { Budget } from "../../../stdlib/values/budget";
import { pyEquals, pyIs } from "../../../stdlib/values/equality";
import { compareNumbers } from "../../../stdlib/values/numbers";
import { type OrderOperator, pyCompare } from "../../../stdlib/values/ordering";
import { repr } from "../../../stdlib/values/repr";
import {
  PyBoundMethod,
  PyDict,
  PyGenerator,
  PyNamespace,
  type PyValue,
  PyView,
} from "../../../stdlib/values/value";
import { big, d, f, show, t } from "./support";
import { COMPARISON_ROWS } from "./tables/compare";

describe("== and ordering against CPython", () => {
  it.each(COMPARISON_ROWS.map((r) => [repr(r[1]), r[0], repr(r[2]), r] as const))(
    "%s %s %s",
    (_a, _o, _b, row) => {
      const [op, a, b, expected] = row;
      const outcome =
        op === "==" ? show(() => pyEquals(a, b)) : show(() => pyCompare(op as OrderOperator, a, b));
      expect(outcome).toBe(expected);
      if (op === "==") expect(pyEquals(b, a)).toBe(pyEquals(a, b));
    },
  );
});

describe("equality of namespaces, views, generators and bound methods (docs/reference/language.md §10.8.2, docs/reference/language.md §10.7.3)", () => {
  const dict = d(["a", 1]);
  const ns = new PyNamespace(dict);
  it("namespaces equal only namespaces with equal dicts", () => {
    expect(pyEquals(ns, new PyNamespace(d(["a", f(1)])))).toBe(true);
    expect(pyEquals(ns, dict)).toBe(false);
    expect(pyEquals(dict, ns)).toBe(false);
    expect(pyEquals(ns, new PyNamespace(d(["a", 2])))).toBe(false);
  });
  it("key and item views compare as sets, value views by identity", () => {
    const other = d(["a", f(1)]);
    expect(pyEquals(new PyView("keys", dict), new PyView("keys", other))).toBe(true);
    expect(pyEquals(new PyView("items", dict), new PyView("items", other))).toBe(true);
    expect(pyEquals(new PyView("items", dict), new PyView("items", d(["a", 2])))).toBe(false);
    const values = new PyView("values", dict);
    expect(pyEquals(values, new PyView("values", dict))).toBe(false);
    expect(pyEquals(values, values)).toBe(true);
    expect(pyEquals(new PyView("keys", dict), ["a"])).toBe(false);
    expect(pyEquals(new PyView("keys", dict), new PyView("items", dict))).toBe(false);
  });
  it("generators and bound methods equal only themselves", () => {
    const g = new PyGenerator([][Symbol.iterator]());
    const m = new PyBoundMethod("a", "upper");
    expect(pyEquals(g, g)).toBe(true);
    expect(pyEquals(g, new PyGenerator([][Symbol.iterator]()))).toBe(false);
    expect(pyEquals(m, m)).toBe(true);
    expect(pyEquals(m, new PyBoundMethod("a", "upper"))).toBe(false);
  });
  it("NaN equals nothing, not even inside the same list", () => {
    const nan = f(Number.NaN);
    const list: PyValue[] = [nan];
    expect(pyEquals(nan, nan)).toBe(false);
    expect(pyEquals(list, list)).toBe(false);
  });
  it("unordered dicts compare equal", () => {
    expect(pyEquals(d(["a", 1], ["b", 2]), d(["b", 2], ["a", f(1)]))).toBe(true);
    expect(pyEquals(new PyDict(), new PyDict())).toBe(true);
  });
});

describe("compareNumbers is exact", () => {
  it.each([
    [big("9007199254740993"), f(9007199254740992), 1],
    [f(9007199254740992), big("9007199254740993"), -1],
    [big(`${2n ** 64n}`), f(2 ** 64), 0],
    [big(`${10n ** 400n}`), f(Number.POSITIVE_INFINITY), -1],
    [big(`${-(10n ** 400n)}`), f(-1.7976931348623157e308), -1],
    [big(`${2n ** 60n + 1n}`), f(2 ** 60 + 2 ** 8), -1],
    [big(`${2n ** 60n + 1n}`), f(2 ** 60), 1],
    [true, f(1), 0],
    [false, -1, 1],
  ] as const)("%s vs %s", (a, b, expected) => {
    expect(compareNumbers(a, b)).toBe(expected);
  });
  it("is NaN with NaN", () => {
    expect(compareNumbers(f(Number.NaN), big(`${2n ** 70n}`))).toBeNaN();
  });
});

describe("identity (docs/reference/language.md §10.8.4)", () => {
  it("follows kind and value for scalars, object identity for containers", () => {
    const list: PyValue[] = [];
    expect(pyIs(null, null)).toBe(true);
    expect(pyIs(true, true)).toBe(true);
    expect(pyIs(1, true)).toBe(false);
    expect(pyIs(1, f(1))).toBe(false);
    expect(pyIs(big("99999999999999999999"), big("99999999999999999999"))).toBe(true);
    expect(pyIs(f(-0), f(0))).toBe(false);
    expect(pyIs("ab", "ab")).toBe(true);
    expect(pyIs(list, list)).toBe(true);
    expect(pyIs(list, [])).toBe(false);
    expect(pyIs(t(), t())).toBe(false);
  });
});

describe("budget in container comparisons", () => {
  it("charges element visits and stops at the limit", () => {
    const budget = new Budget();
    pyEquals([1, 2, 3], [1, 2, 3], budget);
    expect(budget.spent).toBe(3);
    pyCompare("<", [1, 2, 3], [1, 2, 4], budget);
    expect(budget.spent).toBe(6);
    const long = new Array<PyValue>(2000).fill(1);
    expect(() => pyEquals(long, [...long], new Budget(1000))).toThrow(/evaluation budget \(1000 steps\)/);
  });
});
