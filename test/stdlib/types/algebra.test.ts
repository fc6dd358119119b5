import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldType, schemaPropertyType } from "../../../stdlib/types/field-type";
import { elementType, unpackRule } from "../../../stdlib/types/iterate";
import { typeOfValue } from "../../../stdlib/types/of-value";
import { pyTypeName, typeToString } from "../../../stdlib/types/print";
import { ANY, BOOL, INT, NONE, RecordType, STR, type Type } from "../../../stdlib/types/type";
import { hasNone, members, optional, typeEquals, union, withoutNone } from "../../../stdlib/types/union";
import {
  PyBoundMethod,
  PyDict,
  PyFloat,
  PyGenerator,
  PyNamespace,
  PyTuple,
  type PyValue,
  PyView,
} from "../../../stdlib/values/value";
import { parseType } from "./type-syntax";

const review = new RecordType("Review");
review.fields.set("score", { type: INT, optional: false });
const records = new Map([["Review", review]]);
const T = (s: string) => parseType(s, records);
const show = (t: Type) => typeToString(t);

function dict(entries: [PyValue, PyValue][]): PyDict {
  const d = new PyDict();
  for (const [k, v] of entries) d.entries.set(k as string, [k, v]);
  return d;
}

describe("union", () => {
  it.each([
    [["int", "str"], "int | str"],
    [["int", "int"], "int"],
    [["int", "any"], "any"],
    [["int | none", "str"], "int | none | str"],
    [["str{'a'}", "str{'b'}"], "str{'a','b'}"],
    [["str{'a'}", "str"], "str"],
    [["str", "str{'a'}"], "str"],
    [["int{1,2}", "int{2,3}"], "int{1,2,3}"],
    [["list[int]", "list[int]"], "list[int]"],
    [["list[int]", "list[str]"], "list[int] | list[str]"],
    [["tuple[int, str]", "tuple[int, str]"], "tuple[int, str]"],
    [["Review", "Review | none"], "Review | none"],
    [["bool", "int"], "bool | int"],
  ])("union(%j) = %s", (parts, expected) => {
    expect(show(union(...parts.map(T)))).toBe(expected);
  });

  it("treats records as equal only when they are the same contract object", () => {
    const other = new RecordType("Review");
    expect(members(union({ k: "record", record: review }, { k: "record", record: other }))).toHaveLength(2);
  });

  it("handles none helpers", () => {
    expect(hasNone(T("int | none"))).toBe(true);
    expect(hasNone(INT)).toBe(false);
    expect(show(withoutNone(T("int | str | none")))).toBe("int | str");
    expect(show(withoutNone(NONE))).toBe("none");
    expect(show(optional(STR))).toBe("str | none");
  });

  const arbType: fc.Arbitrary<Type> = fc.letrec<{ t: Type }>((tie) => ({
    t: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom<Type>(ANY, NONE, BOOL, INT, STR, { k: "float" }, { k: "str", values: ["a"] }),
      tie("t").map((elem) => ({ k: "list", elem }) as Type),
      fc.array(tie("t"), { maxLength: 3 }).map((elems) => ({ k: "tuple", elems }) as Type),
      fc.tuple(tie("t"), tie("t")).map(([a, b]) => union(a, b)),
    ),
  })).t;

  it("is idempotent, commutative up to member order, and round-trips through printing", () => {
    fc.assert(
      fc.property(arbType, arbType, (a, b) => {
        const ab = union(a, b);
        expect(typeEquals(union(ab, ab), ab)).toBe(true);
        expect(typeEquals(ab, union(b, a))).toBe(true);
        expect(typeEquals(T(show(ab)), ab)).toBe(true);
        if (a.k === "any" || b.k === "any") expect(ab.k).toBe("any");
        else expect(members(ab).every((m) => m.k !== "union" && m.k !== "any")).toBe(true);
      }),
    );
  });
});

describe("typeToString and pyTypeName", () => {
  it.each([
    ["tuple[()]", "tuple"],
    ["tuple[int, ...]", "tuple"],
    ["dict[str, any]", "dict"],
    ["Review", "dict"],
    ["ns[Review]", "types.SimpleNamespace"],
    ["keys[str]", "dict_keys"],
    ["values[int]", "dict_values"],
    ["items[str, int]", "dict_items"],
    ["generator[int]", "generator"],
    ["method", "builtin_function_or_method"],
    ["none", "NoneType"],
    ["str{'a','b'}", "str"],
    ["tuple[int] | tuple[str]", "tuple"],
    ["int | str", null],
    ["any", null],
  ])("%s has Python name %s", (text, name) => {
    expect(show(T(text))).toBe(text);
    expect(pyTypeName(T(text))).toBe(name);
  });

  it("prints enumeration literals as Python does", () => {
    expect(show({ k: "str", values: ["it's", "a\nb"] })).toBe(`str{"it's",'a\\nb'}`);
    expect(show({ k: "float", values: [1, 2.5] })).toBe("float{1.0,2.5}");
  });
});

describe("typeOfValue", () => {
  it.each<[PyValue, string]>([
    [null, "none"],
    [true, "bool"],
    [3, "int"],
    [2n ** 70n, "int"],
    [new PyFloat(1), "float"],
    ["x", "str"],
    [[], "list[any]"],
    [[1, 2], "list[int]"],
    [[1, "a", null], "list[int | str | none]"],
    [[[1], []], "list[list[int] | list[any]]"],
    [new PyTuple([1, "a"]), "tuple[int, str]"],
    [dict([]), "dict[str, any]"],
    [
      dict([
        ["a", 1],
        ["b", "x"],
      ]),
      "dict[str, int | str]",
    ],
    [dict([[1, 1]]), "dict[int, int]"],
    [new PyNamespace(dict([["a", 1]])), "ns[dict[str, int]]"],
    [new PyView("keys", dict([["a", 1]])), "keys[str]"],
    [new PyView("items", dict([["a", 1]])), "items[str, int]"],
    [new PyGenerator([][Symbol.iterator]()), "generator[any]"],
    [new PyBoundMethod("a", "lower"), "method"],
  ])("%s has type %s", (v, expected) => {
    expect(show(typeOfValue(v))).toBe(expected);
  });

  it("caps wide unions at any", () => {
    const varied: PyValue[] = [
      1,
      "a",
      null,
      true,
      new PyFloat(1),
      [1],
      [],
      new PyTuple([]),
      dict([]),
      ["x"],
      [true],
    ];
    expect(show(typeOfValue(varied))).toBe("list[any]");
  });

  it("caps very deep values", () => {
    let v: PyValue = 1;
    for (let i = 0; i < 5000; i++) v = [v];
    expect(show(typeOfValue(v)).includes("any")).toBe(true);
  });
});

describe("fieldType (docs/reference/language.md §3.2)", () => {
  const resolve = (name: string) => records.get(name);
  it.each<[Parameters<typeof fieldType>[0], string]>([
    [{ type: "string" }, "str"],
    [{ type: "string", values: ["low", "high"] }, "str{'low','high'}"],
    [{ type: "number" }, "int | float"],
    [{ type: "integer" }, "int"],
    [{ type: "integer", values: [1, 2] }, "int{1,2}"],
    [{ type: "integer", values: ["a"] }, "int"],
    [{ type: "number", values: [2.5] }, "int | float{2.5}"],
    [{ type: "boolean" }, "bool"],
    [{ type: "array" }, "list[any]"],
    [{ type: "array", items: { type: "Review" } }, "list[Review]"],
    [{ type: "array", items: { type: "string", required: false } }, "list[str | none]"],
    [{ type: "object" }, "dict[str, any]"],
    [{ type: "Review" }, "Review"],
    [{ type: "Review", required: false }, "Review | none"],
    [{ type: "string", required: false }, "str | none"],
    [{ type: "Unknown" }, "any"],
  ])("%j → %s", (def, expected) => {
    expect(show(fieldType(def, resolve))).toBe(expected);
  });

  it.each<[unknown, string]>([
    ["string", "str"],
    ["number", "int | float"],
    ["null", "none"],
    [["string", "null"], "str | none"],
    ["constructor", "any"],
    [undefined, "any"],
  ])("schema type %j → %s", (type, expected) => {
    expect(show(schemaPropertyType(type))).toBe(expected);
  });
});

describe("iteration", () => {
  it.each([
    ["str", "str"],
    ["str{'a'}", "str"],
    ["list[int]", "int"],
    ["tuple[int, str]", "int | str"],
    ["tuple[int, ...]", "int"],
    ["dict[str, int]", "str"],
    ["Review", "str"],
    ["ns[Review]", "str"],
    ["keys[int]", "int"],
    ["values[int]", "int"],
    ["items[str, int]", "tuple[str, int]"],
    ["generator[float]", "float"],
    ["list[int] | none", "int"],
    ["any", "any"],
  ])("elements of %s are %s", (t, expected) => {
    const e = elementType(T(t));
    expect(e === null ? null : show(e)).toBe(expected);
  });

  it.each(["int", "none", "bool", "float", "method", "int | none"])("%s is not iterable", (t) => {
    expect(elementType(T(t))).toBeNull();
  });

  it.each<[string, number, string[] | string]>([
    ["tuple[str, int]", 2, ["str", "int"]],
    ["tuple[str, int] | tuple[int, int]", 2, ["str | int", "int"]],
    ["list[int]", 2, ["int", "int"]],
    ["str", 2, ["str", "str"]],
    ["any", 3, ["any", "any", "any"]],
    ["tuple[str, int, int]", 2, "too many values to unpack (expected 2)"],
    ["tuple[str]", 2, "not enough values to unpack (expected 2, got 1)"],
    ["int", 2, "cannot unpack non-iterable int object"],
    ["none | int", 2, "cannot unpack non-iterable NoneType object"],
  ])("unpacking %s into %i targets", (t, n, expected) => {
    const r = unpackRule(T(t), n);
    if (typeof expected === "string") expect(r).toEqual({ ok: false, message: expected });
    else expect(r.ok ? r.types.map(show) : r.message).toEqual(expected);
  });
});
