// no_file_conflicts(tasks) (docs/reference/language.md §10.9): the reference's cases, its quirks we keep, and
// the three fixes (a task without id named by its own index, a string files_owned is one file, null
// depends_on / files_owned are empty).
import { describe, expect, it } from "vitest";
import { callBuiltin } from "../../../stdlib/builtins/attributes";
import { PyNamespace, type PyValue } from "../../../stdlib/values/value";
import { d, env, f, kw, outcome, t } from "./support";

type Field = "id" | "depends_on" | "files_owned" | "files_read";
/** A task dict from its fields, in the order given. */
const task = (fields: Partial<Record<Field, PyValue>>): PyValue =>
  d(...Object.entries(fields).map(([k, v]): [PyValue, PyValue] => [k, v as PyValue]));

const run = (tasks: PyValue, limit?: number) =>
  outcome(() => callBuiltin("no_file_conflicts", [tasks], null, env(null, limit)));

const conflict = (a: string, b: string, files: string) =>
  `ValueError: File ownership conflict between independent tasks '${a}' and '${b}': ${files}`;

describe("the reference's cases", () => {
  it("passes disjoint files", () => {
    expect(
      run([
        task({ id: "t1", files_owned: ["a.py", "b.py"], depends_on: [] }),
        task({ id: "t2", files_owned: ["c.py", "d.py"], depends_on: [] }),
      ]),
    ).toBe("True");
  });
  it("raises a ValueError for a file owned by two independent tasks", () => {
    expect(
      run([
        task({ id: "t1", files_owned: ["shared.py", "a.py"], depends_on: [] }),
        task({ id: "t2", files_owned: ["shared.py", "b.py"], depends_on: [] }),
      ]),
    ).toBe(conflict("t1", "t2", "['shared.py']"));
  });
  it("lets a task share files with one it depends on", () => {
    expect(
      run([
        task({ id: "t1", files_owned: ["shared.py"], depends_on: [] }),
        task({ id: "t2", files_owned: ["shared.py"], depends_on: ["t1"] }),
      ]),
    ).toBe("True");
  });
  it("never compares files_read", () => {
    expect(
      run([
        task({ id: "t1", files_owned: ["a.py"], files_read: ["config.py"] }),
        task({ id: "t2", files_owned: ["b.py"], files_read: ["config.py"] }),
      ]),
    ).toBe("True");
  });
  it("follows depends_on transitively", () => {
    expect(
      run([
        task({ id: "t1", files_owned: ["shared.py"], depends_on: [] }),
        task({ id: "t2", files_owned: ["other.py"], depends_on: ["t1"] }),
        task({ id: "t3", files_owned: ["shared.py"], depends_on: ["t2"] }),
      ]),
    ).toBe("True");
  });
});

describe("ordering and dependencies", () => {
  it("lists every shared file, sorted", () => {
    expect(
      run([
        task({ id: "a", files_owned: ["z.py", "m.py", "b.py"] }),
        task({ id: "b", files_owned: ["m.py", "z.py"] }),
      ]),
    ).toBe(conflict("a", "b", "['m.py', 'z.py']"));
  });
  it("reports the first conflicting pair in list order", () => {
    expect(
      run([
        task({ id: "t1", files_owned: ["x"] }),
        task({ id: "t2", files_owned: ["y"] }),
        task({ id: "t3", files_owned: ["y", "x"] }),
      ]),
    ).toBe(conflict("t1", "t3", "['x']"));
  });
  it("accepts a dependency in either direction, also on a later task", () => {
    expect(
      run([
        task({ id: "a", depends_on: ["c"], files_owned: ["f"] }),
        task({ id: "b" }),
        task({ id: "c", depends_on: ["d"], files_owned: ["f"] }),
      ]),
    ).toBe("True");
    expect(
      run([
        task({ id: "a", depends_on: ["b"], files_owned: ["f"] }),
        task({ id: "b", depends_on: ["c"] }),
        task({ id: "c", files_owned: ["f"] }),
      ]),
    ).toBe("True");
  });
  it("does not relate two tasks that only share a dependency", () => {
    expect(
      run([
        task({ id: "base" }),
        task({ id: "left", depends_on: ["base"], files_owned: ["f"] }),
        task({ id: "right", depends_on: ["base"], files_owned: ["f"] }),
      ]),
    ).toBe(conflict("left", "right", "['f']"));
  });
  it("terminates on cycles, which relate their members", () => {
    const cycle = [
      task({ id: "a", depends_on: ["b"], files_owned: ["f"] }),
      task({ id: "b", depends_on: ["a"], files_owned: ["f"] }),
    ];
    expect(run(cycle)).toBe("True");
    expect(run([...cycle, task({ id: "c", depends_on: ["c"], files_owned: ["f"] })])).toBe(
      conflict("a", "c", "['f']"),
    );
  });
  it("ignores unknown dependencies", () => {
    expect(
      run([
        task({ id: "a", depends_on: ["ghost"], files_owned: ["f"] }),
        task({ id: "b", files_owned: ["f"] }),
      ]),
    ).toBe(conflict("a", "b", "['f']"));
  });
  it("uses the last of several tasks with one id for its dependencies", () => {
    const tasks = [
      task({ id: "a", depends_on: ["b"], files_owned: ["f"] }),
      task({ id: "b", files_owned: ["f"] }),
    ];
    expect(run(tasks)).toBe("True");
    expect(run([...tasks, task({ id: "a" })])).toBe(conflict("a", "b", "['f']"));
    expect(run([task({ id: "a", files_owned: ["f"] }), task({ id: "a", files_owned: ["f"] })])).toBe(
      conflict("a", "a", "['f']"),
    );
  });
  it("passes an empty list, a single task and duplicates within one task", () => {
    expect(run([])).toBe("True");
    expect(run([task({ id: "a", files_owned: ["f", "f"] })])).toBe("True");
    expect(run([task({ files_owned: 5 })])).toBe("True");
  });
});

describe("ids", () => {
  it("names a task without id by its own index (fixed: the reference says task-<i+1>)", () => {
    expect(
      run([task({ files_owned: ["x"] }), task({ files_owned: ["y"] }), task({ files_owned: ["x"] })]),
    ).toBe(conflict("task-0", "task-2", "['x']"));
  });
  it("keys the dependencies of tasks without id under '' as the reference does", () => {
    // Their own depends_on never relates them to anything, and a dependency on '' names none of them.
    expect(
      run([task({ id: "a", files_owned: ["f"] }), task({ depends_on: ["a"], files_owned: ["f"] })]),
    ).toBe(conflict("a", "task-1", "['f']"));
    expect(run([task({ files_owned: ["f"] }), task({ id: "b", depends_on: [""], files_owned: ["f"] })])).toBe(
      conflict("task-0", "b", "['f']"),
    );
  });
  it("prints any id with str() and compares ids by Python equality", () => {
    expect(run([task({ id: 1, files_owned: ["f"] }), task({ id: null, files_owned: ["f"] })])).toBe(
      conflict("1", "None", "['f']"),
    );
    expect(
      run([task({ id: 1, files_owned: ["f"] }), task({ id: "b", depends_on: [f(1)], files_owned: ["f"] })]),
    ).toBe("True");
    expect(run([task({ id: t("a", 1), files_owned: ["f"] }), task({ id: "b", files_owned: ["f"] })])).toBe(
      conflict("('a', 1)", "b", "['f']"),
    );
  });
});

describe("field values", () => {
  it("treats a string files_owned as one file (fixed: the reference splits it into characters)", () => {
    expect(run([task({ id: "a", files_owned: "ab.py" }), task({ id: "b", files_owned: ["ab.py"] })])).toBe(
      conflict("a", "b", "['ab.py']"),
    );
    expect(run([task({ id: "a", files_owned: "ab" }), task({ id: "b", files_owned: ["a", "b"] })])).toBe(
      "True",
    );
  });
  it("treats null depends_on and files_owned as empty (fixed: the reference raises)", () => {
    expect(
      run([
        task({ id: "a", depends_on: null, files_owned: null }),
        task({ id: "b", depends_on: null, files_owned: ["f"] }),
      ]),
    ).toBe("True");
    expect(
      run([task({ id: "a", depends_on: null, files_owned: ["f"] }), task({ id: "b", files_owned: ["f"] })]),
    ).toBe(conflict("a", "b", "['f']"));
  });
  it("iterates a string depends_on by character, as the reference does", () => {
    expect(
      run([task({ id: "a", files_owned: ["f"] }), task({ id: "b", depends_on: "a", files_owned: ["f"] })]),
    ).toBe("True");
    expect(
      run([task({ id: "t1", files_owned: ["f"] }), task({ id: "t2", depends_on: "t1", files_owned: ["f"] })]),
    ).toBe(conflict("t1", "t2", "['f']"));
  });
  it("accepts any iterable of hashable values for the list fields", () => {
    expect(run([task({ id: "a", files_owned: t("f") }), task({ id: "b", files_owned: d(["f", 1]) })])).toBe(
      conflict("a", "b", "['f']"),
    );
    expect(
      run([task({ id: "a", depends_on: t("b"), files_owned: ["f"] }), task({ id: "b", files_owned: ["f"] })]),
    ).toBe("True");
  });
  it("keeps the element of the smaller set, as CPython's intersection does", () => {
    expect(run([task({ id: "a", files_owned: [1] }), task({ id: "b", files_owned: [f(1)] })])).toBe(
      conflict("a", "b", "[1.0]"),
    );
    expect(run([task({ id: "a", files_owned: [f(1), 2] }), task({ id: "b", files_owned: [true] })])).toBe(
      conflict("a", "b", "[True]"),
    );
    expect(run([task({ id: "a", files_owned: [1] }), task({ id: "b", files_owned: [f(1), 2] })])).toBe(
      conflict("a", "b", "[1]"),
    );
  });
});

describe("errors", () => {
  it("needs an iterable argument", () => {
    expect(run(null)).toBe("TypeError: 'NoneType' object is not iterable");
    expect(run(5)).toBe("TypeError: 'int' object is not iterable");
    expect(run(f(1.5))).toBe("TypeError: 'float' object is not iterable");
  });
  it("needs every task to be a dict or a namespace (Python's vars())", () => {
    const vars = "TypeError: vars() argument must have __dict__ attribute";
    expect(run([1])).toBe(vars);
    expect(run([task({ id: "a" }), "b"])).toBe(vars);
    expect(run([[task({ id: "a" })]])).toBe(vars);
    expect(run("ab")).toBe(vars);
    expect(run(d(["id", "a"]))).toBe(vars);
    expect(run("")).toBe("True");
    expect(run(d())).toBe("True");
  });
  it("reads a namespace's attributes and a tuple's elements", () => {
    const ns = new PyNamespace(d(["id", "a"], ["files_owned", ["f"]]));
    expect(run(t(ns, task({ id: "b", files_owned: ["f"] })))).toBe(conflict("a", "b", "['f']"));
  });
  it("raises Python's errors for values that are not sets of hashables", () => {
    expect(run([task({ id: "a", depends_on: 5 })])).toBe("TypeError: 'int' object is not iterable");
    expect(run([task({ id: "a", depends_on: [["b"]] })])).toBe("TypeError: unhashable type: 'list'");
    expect(run([task({ id: ["a"] })])).toBe("TypeError: unhashable type: 'list'");
    // The depends_on set is built before the id is hashed.
    expect(run([task({ id: ["a"], depends_on: 5 })])).toBe("TypeError: 'int' object is not iterable");
    expect(run([task({ id: "a", files_owned: 5 }), task({ id: "b" })])).toBe(
      "TypeError: 'int' object is not iterable",
    );
    expect(run([task({ id: "a", files_owned: [d()] }), task({ id: "b" })])).toBe(
      "TypeError: unhashable type: 'dict'",
    );
  });
  it("reads files_owned only for pairs of independent tasks", () => {
    expect(run([task({ id: "a", files_owned: 5 }), task({ id: "b", depends_on: ["a"] })])).toBe("True");
  });
  it("raises the comparison error when shared files cannot be sorted", () => {
    expect(run([task({ id: "a", files_owned: ["x", 1] }), task({ id: "b", files_owned: ["x", 1] })])).toMatch(
      /^TypeError: '<' not supported between instances of '(int|str)' and '(str|int)'$/,
    );
  });
});

describe("calls", () => {
  it("takes its argument by position or as tasks=", () => {
    const tasks = [task({ id: "a", files_owned: ["f"] }), task({ id: "b", files_owned: ["f"] })];
    expect(outcome(() => callBuiltin("no_file_conflicts", [], kw({ tasks }), env()))).toBe(
      conflict("a", "b", "['f']"),
    );
    expect(outcome(() => callBuiltin("no_file_conflicts", [], null, env()))).toBe(
      "TypeError: no_file_conflicts() takes exactly 1 argument (0 given)",
    );
    expect(outcome(() => callBuiltin("no_file_conflicts", [[], []], null, env()))).toBe(
      "TypeError: no_file_conflicts() takes exactly 1 argument (2 given)",
    );
    expect(outcome(() => callBuiltin("no_file_conflicts", [[]], kw({ tasks }), env()))).toBe(
      "TypeError: no_file_conflicts() takes exactly 1 argument (2 given)",
    );
    expect(outcome(() => callBuiltin("no_file_conflicts", [], kw({ task: [] }), env()))).toBe(
      "TypeError: no_file_conflicts() got an unexpected keyword argument 'task'",
    );
  });
  it("charges its pairs to the evaluation budget", () => {
    const tasks = Array.from({ length: 200 }, (_, i) => task({ id: `t${i}`, files_owned: [`f${i}`] }));
    expect(run(tasks)).toBe("True");
    expect(run(tasks, 10_000)).toMatch(/^BudgetExceeded: /);
  });
});
