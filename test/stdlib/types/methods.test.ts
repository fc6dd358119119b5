import { describe, expect, it } from "vitest";
import { METHODS } from "../../../stdlib/builtins/methods";
import { methodNames, methodTypeRules } from "../../../stdlib/types/method-rules";
import { typeToString } from "../../../stdlib/types/print";
import type { TypeRuleResult } from "../../../stdlib/types/rule";
import type { Type } from "../../../stdlib/types/type";
import { cpythonErrors } from "./cpython";
import { parseType as T } from "./type-syntax";

const outcome = (r: TypeRuleResult) =>
  r.ok ? typeToString(r.type) : `!${r.message}${r.arg === undefined ? "" : ` @${r.arg}`}`;

function call(
  name: string,
  receiver: string,
  args: readonly string[],
  keywords: Record<string, string> = {},
): string {
  const rule = methodTypeRules[name];
  if (rule === undefined) throw new Error(`no rule for ${name}`);
  const kw = new Map<string, Type>(Object.entries(keywords).map(([k, v]) => [k, T(v)]));
  return outcome(
    rule(
      T(receiver),
      args.map((a) => T(a)),
      kw,
    ),
  );
}

describe("method typing rules (docs/reference/language.md §10.10)", () => {
  it("cover exactly the registry's methods", () => {
    expect(Object.keys(methodTypeRules).sort()).toEqual([...METHODS.keys()].sort());
  });

  it("list method names per receiver in catalogue order", () => {
    expect(methodNames("list")).toEqual(["count", "index"]);
    expect(methodNames("dict")).toEqual(["get", "keys", "values", "items"]);
    expect(methodNames("str")).toContain("startswith");
  });

  it.each<[string, string, string[], Record<string, string>, string]>([
    ["str.startswith", "str", ["str"], {}, "bool"],
    ["str.startswith", "str", ["tuple[str, str]"], {}, "bool"],
    ["str.startswith", "str", ["int"], {}, "!startswith first arg must be str or a tuple of str, not int @0"],
    [
      "str.endswith",
      "str",
      ["none"],
      {},
      "!endswith first arg must be str or a tuple of str, not NoneType @0",
    ],
    [
      "str.startswith",
      "str",
      ["str", "str"],
      {},
      "!slice indices must be integers or None or have an __index__ method @1",
    ],
    ["str.lower", "str{'a'}", [], {}, "str"],
    ["str.strip", "str", ["none"], {}, "str"],
    ["str.lstrip", "str", ["int"], {}, "!lstrip arg must be None or str @0"],
    ["str.split", "str", [], {}, "list[str]"],
    ["str.split", "str", ["int"], {}, "!must be str or None, not int @0"],
    ["str.split", "str", [], { sep: "list[str]" }, "!must be str or None, not list @sep"],
    ["str.split", "str", ["str", "str"], {}, "!'str' object cannot be interpreted as an integer @1"],
    [
      "str.split",
      "str",
      [],
      { maxsplit: "float" },
      "!'float' object cannot be interpreted as an integer @maxsplit",
    ],
    ["str.join", "str", ["list[str]"], {}, "str"],
    ["str.join", "str", ["int"], {}, "!can only join an iterable @0"],
    ["str.join", "str", ["list[int]"], {}, "!sequence item 0: expected str instance, int found @0"],
    ["str.join", "str", ["list[int | str]"], {}, "str"],
    // The first element may be any member: the message names the first one.
    ["str.join", "str", ["list[int | float]"], {}, "!sequence item 0: expected str instance, int found @0"],
    [
      "str.join",
      "str",
      ["generator[none]"],
      {},
      "!sequence item 0: expected str instance, NoneType found @0",
    ],
    ["str.join", "str", ["list[any]"], {}, "str"],
    ["str.replace", "str", ["int", "str"], {}, "!replace() argument 1 must be str, not int @0"],
    ["str.replace", "str", ["str", "none"], {}, "!replace() argument 2 must be str, not NoneType @1"],
    ["str.replace", "str", ["str", "str", "str"], {}, "!'str' object cannot be interpreted as an integer @2"],
    ["str.count", "str", ["int"], {}, "!must be str, not int @0"],
    ["str.find", "str", ["str", "int", "none"], {}, "int"],
    [
      "str.find",
      "str",
      ["str", "float"],
      {},
      "!slice indices must be integers or None or have an __index__ method @1",
    ],
    ["str.isdigit", "str", [], {}, "bool"],
    ["list.count", "list[int]", ["str"], {}, "int"],
    [
      "list.index",
      "list[int]",
      ["int", "str"],
      {},
      "!slice indices must be integers or have an __index__ method @1",
    ],
    ["tuple.index", "tuple[int]", ["int", "int", "int"], {}, "int"],
    ["dict.get", "dict[str, int]", ["str"], {}, "int | none"],
    ["dict.get", "dict[str, int]", ["str", "str"], {}, "int | str"],
    ["dict.get", "dict[str, int]", ["list[int]"], {}, "!unhashable type: 'list' @0"],
    ["dict.get", "ns[dict[str, float]]", ["str"], {}, "float | none"],
    ["dict.keys", "dict[str, int]", [], {}, "keys[str]"],
    ["dict.values", "ns[dict[str, int]]", [], {}, "values[int]"],
    ["dict.items", "dict[int, str]", [], {}, "items[int, str]"],
    ["dict.items", "any", [], {}, "items[any, any]"],
  ])("%s on %s (%j, %j) → %s", (name, receiver, args, keywords, expected) => {
    expect(call(name, receiver, args, keywords)).toBe(expected);
  });

  it("tolerate missing arguments", () => {
    for (const name of Object.keys(methodTypeRules)) expect(() => call(name, "any", [])).not.toThrow();
  });

  it("match CPython's messages", () => {
    const cases: [string, string, string[]][] = [
      ["'a'.startswith(1)", "str.startswith", ["int"]],
      ["'a'.endswith(None)", "str.endswith", ["none"]],
      ["'a'.startswith('a', 'x')", "str.startswith", ["str", "str"]],
      ["'a'.strip(1)", "str.strip", ["int"]],
      ["'a'.rstrip(1)", "str.rstrip", ["int"]],
      ["'a'.split(1)", "str.split", ["int"]],
      ["'a'.split('a', 'b')", "str.split", ["str", "str"]],
      ["'a'.join(1)", "str.join", ["int"]],
      ["'a'.replace(1, 'b')", "str.replace", ["int", "str"]],
      ["'a'.replace('a', 1)", "str.replace", ["str", "int"]],
      ["'a'.replace('a', 'b', 'c')", "str.replace", ["str", "str", "str"]],
      ["'a'.count(1)", "str.count", ["int"]],
      ["'a'.find(None)", "str.find", ["none"]],
      ["'a'.count('a', 1.5)", "str.count", ["str", "float"]],
      ["[1].index(1, 'a')", "list.index", ["int", "str"]],
      ["(1,).index(1, 1, 'a')", "tuple.index", ["int", "int", "str"]],
      ["{}.get([1])", "dict.get", ["list[int]"]],
    ];
    const theirs = cpythonErrors(cases.map(([src]) => src));
    const ours = cases.map(([, name, args]) => {
      const r = methodTypeRules[name]?.(
        T(name.split(".")[0] === "dict" ? "dict[str, int]" : "str"),
        args.map((a) => T(a)),
        new Map(),
      );
      return r === undefined || r.ok ? null : r.message;
    });
    expect(ours).toEqual(theirs);
  });
});
