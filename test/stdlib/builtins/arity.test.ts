// The one arity-message template of docs/reference/language.md §10.13 (DIV-ARITY-MESSAGES), at run time and via arityError.
import { describe, expect, it } from "vitest";
import { arityError, takesText } from "../../../stdlib/builtins/arity";
import { callBuiltin, callMethod, callValue, getAttribute } from "../../../stdlib/builtins/attributes";
import type { PyValue } from "../../../stdlib/values/value";
import { d, env, kw, outcome, t } from "./support";

const builtin = (name: string, args: PyValue[], kwargs: Record<string, PyValue> = {}) =>
  outcome(() => callBuiltin(name, args, kw(kwargs), env()));
const method = (self: PyValue, name: string, args: PyValue[], kwargs: Record<string, PyValue> = {}) =>
  outcome(() => callMethod(self, name, args, kw(kwargs), env()));

describe("builtin arity messages", () => {
  it.each([
    ["len", [1, 2], {}, "TypeError: len() takes exactly 1 argument (2 given)"],
    ["len", [], {}, "TypeError: len() takes exactly 1 argument (0 given)"],
    ["len", [], { x: 1 }, "TypeError: len() got an unexpected keyword argument 'x'"],
    ["bool", [1, 2], {}, "TypeError: bool() takes from 0 to 1 arguments (2 given)"],
    ["int", [1, 2], {}, "TypeError: int() takes from 0 to 1 arguments (2 given)"],
    ["int", ["7"], { base: 8 }, "TypeError: int() got an unexpected keyword argument 'base'"],
    ["str", ["a", "b"], {}, "TypeError: str() takes from 0 to 1 arguments (2 given)"],
    ["min", [], {}, "TypeError: min() takes at least 1 argument (0 given)"],
    ["max", [], { default: 1 }, "TypeError: max() takes at least 1 argument (0 given)"],
    ["min", [[1]], { key: 1 }, "TypeError: min() got an unexpected keyword argument 'key'"],
    ["sorted", [[1]], { key: 1 }, "TypeError: sorted() got an unexpected keyword argument 'key'"],
    ["sorted", [[1], true], {}, "TypeError: sorted() takes exactly 1 argument (2 given)"],
    ["sum", [], {}, "TypeError: sum() takes from 1 to 2 arguments (0 given)"],
    ["sum", [[1], 0], { start: 1 }, "TypeError: sum() takes from 1 to 2 arguments (3 given)"],
    ["round", [], { ndigits: 2 }, "TypeError: round() takes from 1 to 2 arguments (1 given)"],
    ["round", [1.5, 1, 2], {}, "TypeError: round() takes from 1 to 2 arguments (3 given)"],
    ["any", [], {}, "TypeError: any() takes exactly 1 argument (0 given)"],
    ["abs", [1, 2], {}, "TypeError: abs() takes exactly 1 argument (2 given)"],
    ["file_contains", ["a"], {}, "TypeError: file_contains() takes exactly 2 arguments (1 given)"],
    ["file_exists", [], {}, "TypeError: file_exists() takes exactly 1 argument (0 given)"],
  ] as const)("%s(%j, %j)", (name, args, kwargs, expected) => {
    expect(builtin(name, [...args], kwargs)).toBe(expected);
  });

  it("accepts keywords where docs/reference/language.md §10.9 allows them", () => {
    expect(builtin("sum", [[1, 2]], { start: 10 })).toBe("13");
    expect(builtin("round", [1], { ndigits: -1 })).toBe("0");
    expect(builtin("max", [[]], { default: 3 })).toBe("3");
    expect(builtin("sorted", [[1, 3, 2]], { reverse: true })).toBe("[3, 2, 1]");
  });

  it("reports an unknown builtin as a NameError", () => {
    expect(builtin("range", [3])).toBe("NameError: name 'range' is not defined");
  });
});

describe("method arity messages", () => {
  it.each([
    ["a", "lower", [1], {}, "TypeError: str.lower() takes no arguments (1 given)"],
    ["a", "isdigit", [1], {}, "TypeError: str.isdigit() takes no arguments (1 given)"],
    ["a", "replace", ["a"], {}, "TypeError: str.replace() takes from 2 to 3 arguments (1 given)"],
    ["a", "join", [], {}, "TypeError: str.join() takes exactly 1 argument (0 given)"],
    ["a", "find", [], {}, "TypeError: str.find() takes from 1 to 3 arguments (0 given)"],
    ["a", "split", [",", 1, 2], {}, "TypeError: str.split() takes from 0 to 2 arguments (3 given)"],
    ["a", "split", [","], { sep: "," }, "TypeError: str.split() got multiple values for argument 'sep'"],
    ["a", "strip", [], { chars: "a" }, "TypeError: str.strip() got an unexpected keyword argument 'chars'"],
    [
      "a",
      "replace",
      ["a", "b"],
      { count: 1 },
      "TypeError: str.replace() got an unexpected keyword argument 'count'",
    ],
    [[1], "index", [], {}, "TypeError: list.index() takes from 1 to 3 arguments (0 given)"],
    [t(1), "count", [1, 2], {}, "TypeError: tuple.count() takes exactly 1 argument (2 given)"],
    [d(), "get", [], {}, "TypeError: dict.get() takes from 1 to 2 arguments (0 given)"],
    [d(), "keys", [1], {}, "TypeError: dict.keys() takes no arguments (1 given)"],
  ] as const)("%j.%s(%j, %j)", (self, name, args, kwargs, expected) => {
    expect(method(self as PyValue, name, [...args], kwargs)).toBe(expected);
  });

  it("checks the arity of a bound method when it is called later", () => {
    const upper = getAttribute("a", "upper");
    expect(outcome(() => callValue(upper, [1], null, env()))).toBe(
      "TypeError: str.upper() takes no arguments (1 given)",
    );
    expect(outcome(() => callValue(upper, [], null, env()))).toBe("'A'");
  });
});

describe("arityError", () => {
  const spec = { positional: ["x", "ndigits"], required: 1, positionalKeywords: ["ndigits"] };
  it("returns null for acceptable shapes", () => {
    expect(arityError("round", spec, 1, [])).toBeNull();
    expect(arityError("round", spec, 2, [])).toBeNull();
    expect(arityError("round", spec, 1, ["ndigits"])).toBeNull();
  });
  it("checks unexpected keywords before counts", () => {
    expect(arityError("round", spec, 5, ["key"])).toBe("round() got an unexpected keyword argument 'key'");
  });
  it("renders every <spec> form", () => {
    expect(takesText({ positional: [], required: 0 })).toBe("no arguments");
    expect(takesText({ positional: ["a"], required: 1 })).toBe("exactly 1 argument");
    expect(takesText({ positional: ["a", "b"], required: 2 })).toBe("exactly 2 arguments");
    expect(takesText({ positional: ["a", "b", "c"], required: 1 })).toBe("from 1 to 3 arguments");
    expect(takesText({ positional: ["a"], required: 1, varargs: true })).toBe("at least 1 argument");
    expect(takesText({ positional: ["a", "b"], required: 2, varargs: true })).toBe("at least 2 arguments");
  });
  it("allows any number of positional arguments for varargs", () => {
    const minSpec = { positional: ["iterable"], required: 1, varargs: true, keywordOnly: ["default"] };
    expect(arityError("min", minSpec, 7, ["default"])).toBeNull();
  });
});
