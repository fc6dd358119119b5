import { describe, expect, it } from "vitest";
import type { AccessResult } from "../../../stdlib/types/access";
import { attributeType, type CallShape, callType, methodCallType } from "../../../stdlib/types/attribute";
import { typeToString } from "../../../stdlib/types/print";
import { type IndexInfo, subscriptType } from "../../../stdlib/types/subscript";
import { INT, NONE, RecordType, STR, type Type } from "../../../stdlib/types/type";
import { cpythonErrors, SAMPLE } from "./cpython";
import { parseType } from "./type-syntax";

const finding = new RecordType("Finding");
finding.fields.set("severity", { type: { k: "str", values: ["low", "high"] }, optional: false });
finding.fields.set("file", { type: { k: "union", members: [STR, NONE] }, optional: true });
const review = new RecordType("Review");
review.fields.set("score", { type: INT, optional: false });
review.fields.set("findings", {
  type: { k: "list", elem: { k: "record", record: finding } },
  optional: false,
});
const records = new Map([
  ["Finding", finding],
  ["Review", review],
]);
const T = (s: string) => parseType(s, records);

function show(r: AccessResult): string {
  if (r.ok) return typeToString(r.type);
  switch (r.code) {
    case "EXPR-UNKNOWN-FIELD":
      return `field ${r.record.name}.${r.field}`;
    case "EXPR-UNKNOWN-METHOD":
      return `method ${r.receiver}.${r.name} [${r.candidates.join(",")}]`;
    default:
      return `!${r.message}`;
  }
}

describe("attribute access (not called)", () => {
  it.each([
    ["ns[Review]", "score", "int"],
    ["ns[Review]", "scor", "field Review.scor"],
    ["ns[Review]", "get", "field Review.get"],
    ["Review", "get", "method"],
    ["Finding", "file", "str | none"],
    ["ns[dict[str, int]]", "x", "int"],
    ["dict[str, int]", "x", "int"],
    ["dict[str, int]", "keys", "int | method"],
    ["str", "lower", "method"],
    [
      "str",
      "lowr",
      "method str.lowr [startswith,endswith,lower,upper,strip,lstrip,rstrip,split,join,replace,count,find,isdigit,isalpha,isalnum,isspace]",
    ],
    ["list[int]", "x", "method list.x [count,index]"],
    ["tuple[int, ...]", "count", "method"],
    ["keys[str]", "x", "method dict_keys.x []"],
    ["int", "x", "!'int' object has no attribute 'x'"],
    ["none", "x", "!'NoneType' object has no attribute 'x'"],
    ["Review | none", "score", "int"],
    [
      "str | none",
      "lowr",
      "method str.lowr [startswith,endswith,lower,upper,strip,lstrip,rstrip,split,join,replace,count,find,isdigit,isalpha,isalnum,isspace]",
    ],
    ["Review | int", "nope", "field Review.nope"],
    ["any", "x", "any"],
  ])("%s.%s → %s", (t, attr, expected) => {
    expect(show(attributeType(T(t), attr))).toBe(expected);
  });

  it("matches CPython's AttributeError texts", () => {
    const kinds = [
      "none",
      "bool",
      "int",
      "float",
      "str",
      "list[int]",
      "tuple[int]",
      "keys[str]",
      "generator[int]",
      "method",
    ];
    const ours = kinds.map((k) => {
      const r = attributeType(T(k), "nope");
      return r.ok
        ? null
        : r.code === "EXPR-UNKNOWN-METHOD"
          ? `'${r.receiver}' object has no attribute '${r.name}'`
          : r.code === "EXPR-TYPE"
            ? r.message
            : null;
    });
    expect(ours).toEqual(cpythonErrors(kinds.map((k) => `(${SAMPLE[k]}).nope`)));
  });
});

describe("method calls", () => {
  const shape = (args: Type[], extra: Partial<CallShape> = {}): CallShape => ({
    args,
    keywords: new Map(),
    ...extra,
  });

  it.each<[string, string, CallShape, string]>([
    ["str", "upper", shape([]), "str"],
    ["str | none", "upper", shape([]), "str"],
    ["ns[Review]", "get", shape([STR], { literalKey: "score" }), "int | none"],
    ["ns[Review]", "get", shape([STR, INT], { literalKey: "score" }), "int"],
    ["ns[Review]", "get", shape([STR], { literalKey: "scor" }), "field Review.scor"],
    ["Finding", "get", shape([STR], { literalKey: "file" }), "str | none"],
    ["ns[Review]", "items", shape([]), "items[str, any]"],
    ["dict[str, int]", "nope", shape([]), "!'int' object is not callable"],
    ["dict[str, any]", "nope", shape([]), "any"],
    ["Review", "score", shape([]), "!'int' object is not callable"],
    [
      "str",
      "lowr",
      shape([]),
      "method str.lowr [startswith,endswith,lower,upper,strip,lstrip,rstrip,split,join,replace,count,find,isdigit,isalpha,isalnum,isspace]",
    ],
    ["int", "lower", shape([]), "!'int' object has no attribute 'lower'"],
    [
      "str",
      "lower",
      shape([INT], { arity: () => "str.lower() takes no arguments (1 given)" }),
      "!str.lower() takes no arguments (1 given)",
    ],
    ["str", "split", shape([INT]), "!must be str or None, not int"],
  ])("%s.%s(...) → %s", (t, attr, call, expected) => {
    expect(show(methodCallType(T(t), attr, call))).toBe(expected);
  });

  it("calls only bound methods", () => {
    expect(show(callType(T("str"), shape([])))).toBe("!'str' object is not callable");
    expect(show(callType({ k: "method", receiver: STR, name: "upper" }, shape([])))).toBe("str");
    expect(show(callType(T("method"), shape([])))).toBe("any");
    expect(show(callType(T("method | int"), shape([])))).toBe("any");
  });
});

describe("subscripts (docs/reference/language.md §10.8.8)", () => {
  const idx = (t: string, literal?: string | number): IndexInfo =>
    literal === undefined ? { slice: false, type: T(t) } : { slice: false, type: T(t), literal };
  const slice = (...bounds: string[]): IndexInfo => ({ slice: true, bounds: bounds.map((b) => T(b)) });

  it.each<[string, IndexInfo, string]>([
    ["list[str]", idx("int"), "str"],
    ["list[str]", idx("bool"), "str"],
    ["list[str]", idx("str"), "!list indices must be integers or slices, not str"],
    ["list[str]", slice("int", "none"), "list[str]"],
    ["list[str]", slice("str"), "!slice indices must be integers or None or have an __index__ method"],
    ["str{'a'}", idx("int"), "str"],
    ["str", idx("none"), "!string indices must be integers, not 'NoneType'"],
    ["str", slice(), "str"],
    ["tuple[int, str]", idx("int", 1), "str"],
    ["tuple[int, str]", idx("int", -2), "int"],
    ["tuple[int, str]", idx("int"), "int | str"],
    ["tuple[int, str]", slice("int"), "tuple[int | str, ...]"],
    ["tuple[int, str]", idx("float"), "!tuple indices must be integers or slices, not float"],
    ["dict[str, int]", idx("str"), "int"],
    ["dict[str, int]", idx("list[int]"), "!unhashable type: 'list'"],
    ["dict[str, int]", slice("int"), "!unhashable type: 'slice'"],
    ["ns[Review]", idx("str", "score"), "int"],
    ["ns[Review]", idx("str", "scre"), "field Review.scre"],
    ["ns[Review]", idx("str"), "any"],
    ["Finding", idx("str", "severity"), "str{'low','high'}"],
    ["int", idx("int"), "!'int' object is not subscriptable"],
    ["none", idx("int"), "!'NoneType' object is not subscriptable"],
    ["keys[str]", idx("int"), "!'dict_keys' object is not subscriptable"],
    ["list[int] | none", idx("int"), "int"],
    ["any", idx("int"), "any"],
  ])("%s[%j] → %s", (t, index, expected) => {
    expect(show(subscriptType(T(t), index))).toBe(expected);
  });

  it("matches CPython's subscript errors", () => {
    const cases: [string, string, IndexInfo][] = [
      ["[1]['a']", "list[int]", idx("str")],
      ["'a'[None]", "str", idx("none")],
      ["(1,)[1.5]", "tuple[int]", idx("float")],
      ["{}[[1]]", "dict[str, int]", idx("list[int]")],
      ["{}[1:2]", "dict[str, int]", slice("int", "int")],
      ["[1][1.0:]", "list[int]", slice("float")],
      ["None[0]", "none", idx("int")],
      ["(1)[0]", "int", idx("int")],
      ["(x for x in [])[0]", "generator[int]", idx("int")],
      ["'a'.lower[0]", "method", idx("int")],
    ];
    const ours = cases.map(([, t, i]) => {
      const r = subscriptType(T(t), i);
      return r.ok || r.code !== "EXPR-TYPE" ? null : r.message;
    });
    expect(ours).toEqual(cpythonErrors(cases.map(([src]) => src)));
  });
});
