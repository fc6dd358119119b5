import { describe, expect, it } from "vitest";
import type { BinaryOperator } from "../../../stdlib/types/operators";
import { binaryType, compareType, neverEqual, unaryType } from "../../../stdlib/types/operators";
import { typeToString } from "../../../stdlib/types/print";
import type { TypeRuleResult } from "../../../stdlib/types/rule";
import { RecordType } from "../../../stdlib/types/type";
import { cpythonErrors, SAMPLE } from "./cpython";
import { parseType as T } from "./type-syntax";

const outcome = (r: TypeRuleResult) => (r.ok ? typeToString(r.type) : `!${r.message}`);
const SIMPLE = Object.keys(SAMPLE);
// Key and item views are set-like in Python (`-`, `<`, …); in the expression language they are not
// (docs/reference/language.md §10.8.3, docs/reference/language.md §10.8.5), and views are unhashable (docs/reference/language.md §10.8.4): they are left out of the differential runs.
const NOT_SET_LIKE = SIMPLE.filter((t) => !t.startsWith("keys") && !t.startsWith("items"));
const HASHABLE_IN_BOTH = NOT_SET_LIKE.filter((t) => !t.startsWith("values"));
const OPS: BinaryOperator[] = ["+", "-", "*", "/", "//", "%"];

describe("binary operators", () => {
  it.each([
    ["+", "int", "int", "int"],
    ["+", "bool", "bool", "int"],
    ["+", "int", "float", "float"],
    ["+", "str", "str", "str"],
    ["+", "str{'a'}", "str", "str"],
    ["+", "list[int]", "list[str]", "list[int | str]"],
    ["+", "tuple[int]", "tuple[str]", "tuple[int, str]"],
    ["+", "tuple[int, ...]", "tuple[str]", "tuple[int | str, ...]"],
    ["+", "str", "int", '!can only concatenate str (not "int") to str'],
    ["+", "list[int]", "tuple[int]", '!can only concatenate list (not "tuple") to list'],
    ["+", "tuple[int]", "list[int]", '!can only concatenate tuple (not "list") to tuple'],
    ["+", "int", "str", "!unsupported operand type(s) for +: 'int' and 'str'"],
    ["+", "dict[str, int]", "dict[str, int]", "!unsupported operand type(s) for +: 'dict' and 'dict'"],
    [
      "+",
      "ns[dict[str, int]]",
      "int",
      "!unsupported operand type(s) for +: 'types.SimpleNamespace' and 'int'",
    ],
    ["+", "str | int", "int", "int"],
    ["+", "str | none", "int", '!can only concatenate str (not "int") to str'],
    ["+", "any", "str", "any"],
    ["+", "list[any]", "list[int]", "list[any]"],
    ["-", "int", "float", "float"],
    ["-", "str", "str", "!unsupported operand type(s) for -: 'str' and 'str'"],
    ["*", "str", "int", "str"],
    ["*", "bool", "list[int]", "list[int]"],
    ["*", "tuple[int, str]", "int", "tuple[int | str, ...]"],
    ["*", "str", "float", "!can't multiply sequence by non-int of type 'float'"],
    ["*", "none", "str", "!can't multiply sequence by non-int of type 'NoneType'"],
    ["*", "dict[str, int]", "int", "!unsupported operand type(s) for *: 'dict' and 'int'"],
    ["/", "int", "int", "float"],
    ["/", "int", "none", "!unsupported operand type(s) for /: 'int' and 'NoneType'"],
    ["//", "int", "bool", "int"],
    ["//", "float", "int", "float"],
    ["%", "int", "int", "int"],
    ["%", "str", "int", "!unsupported operand type(s) for %: 'str' and 'int'"],
    ["%", "str", "str", "!unsupported operand type(s) for %: 'str' and 'str'"],
  ] as const)("%s: %s, %s → %s", (op, l, r, expected) => {
    expect(outcome(binaryType(op, T(l), T(r)))).toBe(expected);
  });

  it("gives CPython's message for every failing pair of simple types", () => {
    const cases: { src: string; ours: string | null }[] = [];
    for (const op of OPS)
      for (const l of NOT_SET_LIKE)
        for (const r of NOT_SET_LIKE) {
          // `%` with a string on the left is formatting in Python, an error here (docs/reference/language.md §10.8.5).
          if (op === "%" && l === "str") continue;
          const res = binaryType(op, T(l), T(r));
          cases.push({ src: `(${SAMPLE[l]}) ${op} (${SAMPLE[r]})`, ours: res.ok ? null : res.message });
        }
    const theirs = cpythonErrors(cases.map((c) => c.src));
    const mismatches = cases.flatMap((c, i) => {
      const py = theirs[i] ?? null;
      // A Python failure that is a value error (division by zero) is not a type failure.
      const same = c.ours === py || (c.ours === null && py !== null && /division|modulo/.test(py));
      return same ? [] : [`${c.src}: ours ${c.ours} / python ${py}`];
    });
    expect(mismatches).toEqual([]);
  });
});

describe("unary operators", () => {
  it.each([
    ["-", "bool", "int"],
    ["-", "int{1,2}", "int"],
    ["+", "float", "float"],
    ["-", "str", "!bad operand type for unary -: 'str'"],
    ["+", "none", "!bad operand type for unary +: 'NoneType'"],
    ["-", "int | none", "int"],
    ["not", "str", "bool"],
    ["-", "any", "any"],
  ] as const)("%s%s → %s", (op, t, expected) => {
    expect(outcome(unaryType(op, T(t)))).toBe(expected);
  });

  it("matches CPython for every simple type", () => {
    const cases = SIMPLE.flatMap((t) =>
      (["-", "+"] as const).map((op) => {
        const r = unaryType(op, T(t));
        return { src: `${op}(${SAMPLE[t]})`, ours: r.ok ? null : r.message };
      }),
    );
    const theirs = cpythonErrors(cases.map((c) => c.src));
    expect(cases.map((c) => c.ours)).toEqual(theirs);
  });
});

describe("comparisons", () => {
  it.each([
    ["<", "int", "float", "bool"],
    ["<", "str", "str", "bool"],
    ["<", "list[int]", "list[str]", "bool"],
    ["<", "tuple[int]", "tuple[int, ...]", "bool"],
    [">", "str", "int", "!'>' not supported between instances of 'str' and 'int'"],
    ["<", "none", "none", "!'<' not supported between instances of 'NoneType' and 'NoneType'"],
    ["<=", "dict[str, int]", "dict[str, int]", "!'<=' not supported between instances of 'dict' and 'dict'"],
    [">=", "int | none", "int", "bool"],
    ["<", "any", "str", "any"],
    ["==", "str", "int", "bool"],
    ["is", "str", "int", "bool"],
    ["in", "str", "str", "bool"],
    ["in", "int", "str", "!'in <string>' requires string as left operand, not int"],
    ["in", "int", "list[str]", "bool"],
    ["not in", "list[int]", "dict[str, int]", "!unhashable type: 'list'"],
    ["in", "tuple[int, list[int]]", "dict[str, int]", "!unhashable type: 'list'"],
    ["in", "str", "ns[dict[str, int]]", "bool"],
    ["in", "dict[str, int]", "keys[str]", "!unhashable type: 'dict'"],
    ["in", "int", "values[int]", "bool"],
    ["in", "int", "int", "!argument of type 'int' is not iterable"],
    ["in", "int", "none | list[int]", "bool"],
    ["in", "int", "none", "!argument of type 'NoneType' is not iterable"],
  ] as const)("%s: %s, %s → %s", (op, l, r, expected) => {
    expect(outcome(compareType(op, T(l), T(r)))).toBe(expected);
  });

  it("matches CPython for ordering and membership of every pair of simple types", () => {
    const cases: { src: string; ours: string | null }[] = [];
    for (const op of ["<", ">=", "in"] as const)
      for (const l of op === "in" ? HASHABLE_IN_BOTH : NOT_SET_LIKE)
        for (const r of NOT_SET_LIKE) {
          const res = compareType(op, T(l), T(r));
          cases.push({ src: `(${SAMPLE[l]}) ${op} (${SAMPLE[r]})`, ours: res.ok ? null : res.message });
        }
    const theirs = cpythonErrors(cases.map((c) => c.src));
    const mismatches = cases.filter((c, i) => c.ours !== (theirs[i] ?? null));
    expect(mismatches.map((c) => c.src)).toEqual([]);
  });

  const review = new RecordType("Review");
  it.each([
    ["str", "int", true],
    ["bool", "float", false],
    ["str | none", "none", false],
    ["str", "none", true],
    ["ns[dict[str, int]]", "dict[str, int]", true],
    ["ns[Review]", "ns[Review]", false],
    ["Review", "dict[str, any]", false],
    ["list[int]", "tuple[int]", true],
    ["tuple[int, ...]", "tuple[()]", false],
    ["any", "int", false],
    ["keys[str]", "values[int]", true],
  ] as const)("never equal: %s vs %s → %s", (l, r, expected) => {
    const records = new Map([["Review", review]]);
    expect(neverEqual(T(l, records), T(r, records))).toBe(expected);
  });
});
