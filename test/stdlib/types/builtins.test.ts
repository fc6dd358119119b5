import { describe, expect, it } from "vitest";
import { BUILTINS } from "../../../stdlib/builtins/registry";
import { builtinTypeRules } from "../../../stdlib/types/builtin-rules";
import { typeToString } from "../../../stdlib/types/print";
import type { TypeRuleResult } from "../../../stdlib/types/rule";
import type { Type } from "../../../stdlib/types/type";
import { cpythonErrors, SAMPLE } from "./cpython";
import { parseType as T } from "./type-syntax";

const outcome = (r: TypeRuleResult) =>
  r.ok ? typeToString(r.type) : `!${r.message}${r.arg === undefined ? "" : ` @${r.arg}`}`;

function call(name: string, args: readonly string[], keywords: Record<string, string> = {}): string {
  const rule = builtinTypeRules[name];
  if (rule === undefined) throw new Error(`no rule for ${name}`);
  const kw = new Map<string, Type>(Object.entries(keywords).map(([k, v]) => [k, T(v)]));
  return outcome(
    rule(
      args.map((a) => T(a)),
      kw,
    ),
  );
}

describe("builtin typing rules (docs/reference/language.md §10.9)", () => {
  it("cover exactly the registry's builtins", () => {
    expect(Object.keys(builtinTypeRules).sort()).toEqual([...BUILTINS.keys()].sort());
  });

  it("have no inherited entries", () => {
    expect(builtinTypeRules.constructor).toBeUndefined();
    expect(builtinTypeRules.toString).toBeUndefined();
  });

  it.each<[string, string[], Record<string, string>, string]>([
    ["len", ["str"], {}, "int"],
    ["len", ["ns[dict[str, int]]"], {}, "int"],
    ["len", ["items[str, int]"], {}, "int"],
    ["len", ["int"], {}, "!object of type 'int' has no len() @0"],
    ["len", ["none"], {}, "!object of type 'NoneType' has no len() @0"],
    ["len", ["list[int] | none"], {}, "int"],
    ["len", ["generator[int]"], {}, "!object of type 'generator' has no len() @0"],
    ["bool", [], {}, "bool"],
    ["int", ["str"], {}, "int"],
    [
      "int",
      ["list[int]"],
      {},
      "!int() argument must be a string, a bytes-like object or a real number, not 'list' @0",
    ],
    ["float", ["none"], {}, "!float() argument must be a string or a real number, not 'NoneType' @0"],
    ["float", [], {}, "float"],
    ["str", ["list[int]"], {}, "str"],
    ["min", ["list[int]"], {}, "int"],
    ["min", ["list[int]"], { default: "none" }, "int | none"],
    ["max", ["int"], {}, "!'int' object is not iterable @0"],
    ["max", ["int", "float"], {}, "int | float"],
    ["max", ["int", "str"], {}, "!'>' not supported between instances of 'str' and 'int' @1"],
    ["min", ["int", "str"], {}, "!'<' not supported between instances of 'str' and 'int' @1"],
    [
      "min",
      ["int", "int"],
      { default: "int" },
      "!Cannot specify a default for min() with multiple positional arguments @default",
    ],
    ["any", ["generator[bool]"], {}, "bool"],
    ["all", ["none"], {}, "!'NoneType' object is not iterable @0"],
    ["sum", ["list[int]"], {}, "int"],
    ["sum", ["list[float]"], {}, "int | float"],
    ["sum", ["list[float]", "float"], {}, "float"],
    ["sum", ["list[list[int]]"], { start: "list[int]" }, "list[int]"],
    ["sum", ["list[str]", "str"], {}, "!sum() can't sum strings [use ''.join(seq) instead] @1"],
    ["sum", ["list[str]"], { start: "str" }, "!sum() can't sum strings [use ''.join(seq) instead] @start"],
    ["sum", ["int"], {}, "!'int' object is not iterable @0"],
    // A non-empty list of str always fails, and the checker's guarantee covers non-empty lists.
    ["sum", ["list[str]"], {}, "!unsupported operand type(s) for +: 'int' and 'str' @0"],
    ["sum", ["list[int | str]"], {}, "int"],
    ["sorted", ["list[dict[str, int]]"], {}, "!'<' not supported between instances of 'dict' and 'dict' @0"],
    ["sorted", ["list[int]"], {}, "list[int]"],
    ["max", ["list[none]"], {}, "!'>' not supported between instances of 'NoneType' and 'NoneType' @0"],
    ["abs", ["bool"], {}, "int"],
    ["abs", ["float | int"], {}, "float | int"],
    ["abs", ["str"], {}, "!bad operand type for abs(): 'str' @0"],
    ["round", ["float"], {}, "int"],
    ["round", ["float", "int"], {}, "float"],
    ["round", ["float", "none"], {}, "int"],
    ["round", ["float"], { ndigits: "int | none" }, "int | float"],
    ["round", ["int", "int"], {}, "int"],
    ["round", ["str"], {}, "!type str doesn't define __round__ method @0"],
    ["round", ["float", "str"], {}, "!'str' object cannot be interpreted as an integer @1"],
    ["round", ["any"], {}, "any"],
    ["sorted", ["keys[str]"], {}, "list[str]"],
    ["sorted", ["list[int]"], { reverse: "bool" }, "list[int]"],
    [
      "sorted",
      ["list[int]"],
      { reverse: "none" },
      "!'NoneType' object cannot be interpreted as an integer @reverse",
    ],
    ["sorted", ["float"], {}, "!'float' object is not iterable @0"],
    ["file_exists", ["str"], {}, "bool"],
    ["file_exists", ["str | none"], {}, "bool"],
    ["file_exists", ["none"], {}, "!file_exists() argument must be str, not NoneType @0"],
    ["file_contains", ["int", "str"], {}, "!file_contains() argument must be str, not int @0"],
    ["file_contains", ["str", "int"], {}, "bool"],
    ["no_file_conflicts", ["list[any]"], {}, "bool"],
    ["no_file_conflicts", ["list[dict[str, list[str]]]"], {}, "bool"],
    ["no_file_conflicts", ["list[int | dict[str, int]]"], {}, "bool"],
    ["no_file_conflicts", ["tuple[dict[str, int], dict[str, str]]"], {}, "bool"],
    ["no_file_conflicts", ["any"], {}, "bool"],
    ["no_file_conflicts", [], { tasks: "list[any]" }, "bool"],
    ["no_file_conflicts", ["none"], {}, "!'NoneType' object is not iterable @0"],
    ["no_file_conflicts", ["int"], {}, "!'int' object is not iterable @0"],
    ["no_file_conflicts", [], { tasks: "float" }, "!'float' object is not iterable @tasks"],
    ["no_file_conflicts", ["list[str]"], {}, "!vars() argument must have __dict__ attribute @0"],
    ["no_file_conflicts", ["dict[str, int]"], {}, "!vars() argument must have __dict__ attribute @0"],
    [
      "no_file_conflicts",
      ["list[list[dict[str, int]]]"],
      {},
      "!vars() argument must have __dict__ attribute @0",
    ],
  ])("%s(%j, %j) → %s", (name, args, keywords, expected) => {
    expect(call(name, args, keywords)).toBe(expected);
  });

  it("no_file_conflicts fails for tasks that are not objects only when there is a task", () => {
    for (const t of ["list[str]", "str", "list[int | none]"]) {
      const r = builtinTypeRules.no_file_conflicts?.([T(t)], new Map());
      expect(r?.ok === false && r.failsFrom).toBe(1);
    }
    const r = builtinTypeRules.no_file_conflicts?.([T("none")], new Map());
    expect(r?.ok === false && r.failsFrom).toBeUndefined();
  });

  it("tolerates missing arguments (arity is checked separately)", () => {
    for (const name of Object.keys(builtinTypeRules)) expect(() => call(name, [])).not.toThrow();
  });

  it("match CPython's messages for one-argument calls on every simple type", () => {
    const names = ["len", "int", "float", "abs", "round", "sorted", "min", "max", "any", "all", "sum"];
    const cases = names.flatMap((name) =>
      Object.keys(SAMPLE).map((t) => {
        const r = builtinTypeRules[name]?.([T(t)], new Map());
        return { src: `${name}(${SAMPLE[t]})`, ours: r === undefined || r.ok ? null : r.message };
      }),
    );
    const theirs = cpythonErrors(cases.map((c) => c.src));
    // Only definite failures are compared: a call that fails in Python for a *value* reason
    // (int('a'), min of an empty sequence) is accepted statically.
    const mismatches = cases.flatMap((c, i) =>
      c.ours !== null && c.ours !== theirs[i] ? [`${c.src}: ${c.ours} / ${theirs[i]}`] : [],
    );
    const missed = cases.flatMap((c, i) => {
      const py = theirs[i] ?? null;
      return c.ours === null &&
        py !== null &&
        /TypeError|not iterable|no len|must be|doesn't define|bad operand/.test(py)
        ? [`${c.src}: python ${py}`]
        : [];
    });
    expect(mismatches).toEqual([]);
    expect(missed).toEqual([]);
  });
});
