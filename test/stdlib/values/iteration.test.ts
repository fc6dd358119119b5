import { describe, expect, it } from "vitest";
import { Budget } from "../../../stdlib/values/budget";
import { isIterable, iterate, makeGenerator, toArray } from "../../../stdlib/values/iteration";
import { pyContains } from "../../../stdlib/values/membership";
import { makeNamespace } from "../../../stdlib/values/namespace";
import { repr } from "../../../stdlib/values/repr";
import { PyBoundMethod, type PyValue, PyView } from "../../../stdlib/values/value";
import { d, f, show, t } from "./support";

describe("iterate (docs/reference/language.md §10.8.10)", () => {
  const dict = d(["a", 1], [2, "b"]);
  it.each([
    ["a😀e\u0301", "['a', '😀', 'e', '\u0301']"],
    [[1, [2]], "[1, [2]]"],
    [t(1, "x"), "[1, 'x']"],
    [dict, "['a', 2]"],
    [makeNamespace(dict), "['a', 2]"],
    [new PyView("keys", dict), "['a', 2]"],
    [new PyView("values", dict), "[1, 'b']"],
    [new PyView("items", dict), "[('a', 1), (2, 'b')]"],
    ["", "[]"],
  ] as const)("%s", (value, expected) => {
    expect(repr(toArray(value))).toBe(expected);
    expect(isIterable(value)).toBe(true);
  });

  it.each([
    [1, "int"],
    [f(1), "float"],
    [null, "NoneType"],
    [true, "bool"],
    [new PyBoundMethod("a", "upper"), "builtin_function_or_method"],
  ] as const)("rejects %s", (value, type) => {
    expect(show(() => iterate(value) as unknown as PyValue)).toBe(
      `!TypeError: '${type}' object is not iterable`,
    );
    expect(isIterable(value)).toBe(false);
  });

  it("consumes a generator once, and a loop break does not close it", () => {
    const g = makeGenerator([1, 2, 3][Symbol.iterator]());
    for (const x of { [Symbol.iterator]: () => iterate(g) }) {
      if (x === 1) break;
    }
    expect(toArray(g)).toEqual([2, 3]);
    expect(toArray(g)).toEqual([]);
  });

  it("runs a lazy generator only as far as requested", () => {
    let produced = 0;
    function* source(): Generator<PyValue> {
      for (let i = 0; i < 5; i++) {
        produced++;
        yield i;
      }
    }
    const g = makeGenerator(source());
    expect(pyContains(g, 1)).toBe(true);
    expect(produced).toBe(2);
  });
});

describe("iteration budget", () => {
  it("charges one step per element produced", () => {
    const budget = new Budget();
    toArray("a😀b", budget);
    expect(budget.spent).toBe(3);
    toArray(new PyView("items", d(["a", 1])), budget);
    expect(budget.spent).toBe(4);
    pyContains([1, 2, 3], 2, budget);
    expect(budget.spent).toBe(6);
    expect(() => toArray(new Array<PyValue>(50).fill(0), new Budget(10))).toThrow(/evaluation budget/);
  });
});
