import { describe, expect, it } from "vitest";
import { Budget } from "../../../stdlib/values/budget";
import { makeDict } from "../../../stdlib/values/dict";
import { makeNamespace } from "../../../stdlib/values/namespace";
import { floatRepr, repr, str, strRepr } from "../../../stdlib/values/repr";
import { PyBoundMethod, PyGenerator, type PyTuple, type PyValue, PyView } from "../../../stdlib/values/value";
import { d, f, show, t } from "./support";
import { REPR_ROWS } from "./tables/reprs";

function outcome(op: string, a: PyValue): string {
  if (op === "repr") return show(() => repr(a));
  if (op === "str") return show(() => str(a));
  return show(() =>
    makeDict((a as readonly PyTuple[]).map((p) => [p.items[0] ?? null, p.items[1] ?? null] as const)),
  );
}

describe("repr, str and dict construction against CPython", () => {
  it.each(REPR_ROWS.map((r) => [r[0], repr(r[1]), r] as const))("%s %s", (_o, _a, row) => {
    expect(outcome(row[0], row[1])).toBe(row[3]);
  });
});

describe("spec reprs (docs/reference/language.md §10.11, docs/reference/language.md §10.7.3)", () => {
  const dict = d(["a", 1], ["b", "x"]);
  it.each([
    [makeNamespace(dict), "namespace(a=1, b='x')"],
    [makeNamespace(d()), "namespace()"],
    [new PyView("keys", d(["a", 1])), "dict_keys(['a'])"],
    [new PyView("values", dict), "dict_values([1, 'x'])"],
    [new PyView("items", dict), "dict_items([('a', 1), ('b', 'x')])"],
    [new PyView("items", d()), "dict_items([])"],
    [new PyGenerator([][Symbol.iterator]()), "<generator object <genexpr>>"],
    [new PyBoundMethod("a", "upper"), "<built-in method upper of str object>"],
    [new PyBoundMethod(makeNamespace(d()), "get"), "<built-in method get of types.SimpleNamespace object>"],
    [[1, "a", null, true], "[1, 'a', None, True]"],
    [t(1), "(1,)"],
    [d(["a", t(1)]), "{'a': (1,)}"],
    [[f(1), f(1e16), f(0.1 + 0.2), f(-0)], "[1.0, 1e+16, 0.30000000000000004, -0.0]"],
  ] as const)("%s", (value, expected) => {
    expect(repr(value)).toBe(expected);
    expect(str(value)).toBe(expected);
  });

  it("str of a string is the string itself", () => {
    expect(str("it's")).toBe("it's");
  });
});

describe("strRepr escapes exactly Python's non-printable code points", () => {
  it.each([
    ["\u0378", "'\\u0378'"], // Cn (unassigned)
    ["\u00ad", "'\\xad'"], // Cf
    ["\u061c", "'\\u061c'"], // Cf
    ["\u2000", "'\\u2000'"], // Zs
    [" ", "' '"],
    ["\udbff\udfff", "'\\U0010ffff'"], // Cn (noncharacter)
    ["\u{f0000}", "'\\U000f0000'"], // Co
    ["\ud83d", "'\\ud83d'"], // lone surrogate (Cs)
    ["\u{1f600}\u0301", "'\u{1f600}\u0301'"],
    ["\\'\"", "'\\\\\\'\"'"],
  ])("%j", (s, expected) => {
    expect(strRepr(s)).toBe(expected);
  });
});

describe("floatRepr", () => {
  it.each([
    [1e-4, "0.0001"],
    [1e-5, "1e-05"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e+16"],
    [2 ** 53 + 1, "9007199254740992.0"],
    [1.2345678901234568e17, "1.2345678901234568e+17"],
    [-1.5e-7, "-1.5e-07"],
    [1e100, "1e+100"],
    [123.0, "123.0"],
  ])("%d", (x, expected) => {
    expect(floatRepr(x)).toBe(expected);
  });
});

describe("repr budget", () => {
  it("charges each output code point and stops a large output early", () => {
    const budget = new Budget();
    repr(["é", 1], budget);
    expect(budget.spent).toBe("['é', 1]".length);
    const many = new Array<PyValue>(100_000).fill("abcdefghij");
    const small = new Budget(1000);
    expect(() => repr(many, small)).toThrow(/evaluation budget/);
    expect(small.spent).toBeLessThan(1100);
  });
});
