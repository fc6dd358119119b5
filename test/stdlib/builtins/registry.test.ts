// The builtin and method tables, generators as arguments, and budget charges (docs/reference/language.md §10.15).
import { describe, expect, it } from "vitest";
import { callBuiltin, callMethod } from "../../../stdlib/builtins/attributes";
import { METHODS, methodsOf } from "../../../stdlib/builtins/methods";
import { BUILTINS } from "../../../stdlib/builtins/registry";
import { INT } from "../../../stdlib/types/type";
import { PyError } from "../../../stdlib/values/errors";
import { PyGenerator, type PyValue } from "../../../stdlib/values/value";
import { env, f, outcome } from "./support";

/** A generator over `values`, recording how many elements were requested. */
function generator(values: readonly PyValue[]): { gen: PyGenerator; pulled: () => number } {
  let pulled = 0;
  function* run(): Generator<PyValue> {
    for (const v of values) {
      pulled++;
      yield v;
    }
  }
  return { gen: new PyGenerator(run()), pulled: () => pulled };
}

describe("tables", () => {
  it("list exactly the builtins of docs/reference/language.md §10.9", () => {
    expect([...BUILTINS.keys()].sort()).toEqual([
      "abs",
      "all",
      "any",
      "bool",
      "file_contains",
      "file_exists",
      "float",
      "int",
      "len",
      "max",
      "min",
      "no_file_conflicts",
      "plan_completion",
      "round",
      "sorted",
      "str",
      "sum",
      "vocabulary_compliance",
    ]);
  });
  it("mark only the file builtins as reading files", () => {
    const reading = [...BUILTINS.values()].filter((b) => b.purity === "reads-files").map((b) => b.name);
    expect(reading.sort()).toEqual(["file_contains", "file_exists", "vocabulary_compliance"]);
  });
  it("list exactly the methods of docs/reference/language.md §10.10", () => {
    expect(
      methodsOf("str")
        .map((m) => m.name)
        .sort(),
    ).toEqual([
      "count",
      "endswith",
      "find",
      "isalnum",
      "isalpha",
      "isdigit",
      "isspace",
      "join",
      "lower",
      "lstrip",
      "replace",
      "rstrip",
      "split",
      "startswith",
      "strip",
      "upper",
    ]);
    expect(methodsOf("list").map((m) => m.name)).toEqual(["count", "index"]);
    expect(methodsOf("tuple").map((m) => m.name)).toEqual(["count", "index"]);
    expect(methodsOf("dict").map((m) => m.name)).toEqual(["get", "keys", "values", "items"]);
    expect(METHODS.get("str.lower")?.receiver).toBe("str");
  });
  it("give every entry a signature naming it and a doc sentence", () => {
    for (const b of BUILTINS.values()) {
      expect(b.signature.startsWith(`${b.name}(`)).toBe(true);
      expect(b.doc).toMatch(/\.$/);
    }
    for (const [key, m] of METHODS) {
      expect(key).toBe(`${m.receiver}.${m.name}`);
      expect(m.signature.startsWith(`${key}(`)).toBe(true);
      expect(m.doc).toMatch(/\.$/);
    }
  });
  it("expose typing rules that return a result", () => {
    const rule = BUILTINS.get("len")?.typeRule;
    expect(rule?.([INT], new Map())).toHaveProperty("ok");
    expect(METHODS.get("str.lower")?.typeRule({ k: "str" }, [], new Map())).toHaveProperty("ok");
  });
});

describe("generators as arguments", () => {
  it("any and all stop at the first decisive element", () => {
    const a = generator([0, 1, "x", 2]);
    expect(outcome(() => callBuiltin("any", [a.gen], null, env()))).toBe("True");
    expect(a.pulled()).toBe(2);
    const b = generator([1, 0, 5]);
    expect(outcome(() => callBuiltin("all", [b.gen], null, env()))).toBe("False");
    expect(b.pulled()).toBe(2);
  });
  it("min, max, sum and sorted consume them", () => {
    expect(outcome(() => callBuiltin("min", [generator([3, 1, 2]).gen], null, env()))).toBe("1");
    expect(outcome(() => callBuiltin("max", [generator([f(1.5), 2]).gen], null, env()))).toBe("2");
    expect(outcome(() => callBuiltin("sum", [generator([1, 2]).gen], null, env()))).toBe("3");
    expect(outcome(() => callBuiltin("sorted", [generator([2, 1]).gen], null, env()))).toBe("[1, 2]");
    expect(outcome(() => callBuiltin("len", [generator([]).gen], null, env()))).toBe(
      "TypeError: object of type 'generator' has no len()",
    );
  });
  it("a generator is single use", () => {
    const g = generator([1, 2]).gen;
    expect(outcome(() => callBuiltin("sum", [g], null, env()))).toBe("3");
    expect(outcome(() => callBuiltin("sum", [g], null, env()))).toBe("0");
  });
  it("join consumes the whole iterable before checking element types", () => {
    const g = generator(["a", 1, "b"]);
    expect(outcome(() => callMethod("-", "join", [g.gen], null, env()))).toBe(
      "TypeError: sequence item 1: expected str instance, int found",
    );
    expect(g.pulled()).toBe(3);
    expect(outcome(() => callMethod("-", "join", [generator(["a", "b"]).gen], null, env()))).toBe("'a-b'");
  });
});

describe("budget", () => {
  const exceeds = (run: () => PyValue) => {
    try {
      run();
      return false;
    } catch (e) {
      return e instanceof PyError && e.kind === "BudgetExceeded";
    }
  };
  it("charges one step per element for aggregates", () => {
    const list = Array.from({ length: 100 }, (_, i) => i + 1);
    for (const name of ["sum", "min", "max", "all", "sorted"]) {
      expect(exceeds(() => callBuiltin(name, [list], null, env(null, 50)))).toBe(true);
      const e = env(null, 10_000);
      callBuiltin(name, [list], null, e);
      expect(e.budget.spent).toBeGreaterThanOrEqual(100);
    }
  });
  it("charges n·log2(n+1) more for sorting", () => {
    const e = env();
    callBuiltin("sorted", [[3, 1, 2]], null, e);
    expect(e.budget.spent).toBeGreaterThanOrEqual(3 + Math.ceil(3 * Math.log2(4)));
  });
  it("charges the size of built strings before building them", () => {
    const big = "ab".repeat(600);
    expect(exceeds(() => callMethod(big, "upper", [], null, env(null, 1000)))).toBe(true);
    expect(exceeds(() => callMethod("-", "join", [[big, big]], null, env(null, 2000)))).toBe(true);
    expect(exceeds(() => callMethod("a", "replace", ["", big], null, env(null, 2000)))).toBe(true);
    expect(exceeds(() => callMethod(big, "count", ["b"], null, env(null, 1000)))).toBe(true);
    expect(exceeds(() => callMethod(big, "find", ["z"], null, env(null, 1000)))).toBe(true);
  });
  it("charges list walks", () => {
    const list = Array.from({ length: 100 }, () => 0);
    expect(exceeds(() => callMethod(list, "count", [1], null, env(null, 50)))).toBe(true);
    expect(exceeds(() => callMethod(list, "index", [1], null, env(null, 50)))).toBe(true);
  });
});
