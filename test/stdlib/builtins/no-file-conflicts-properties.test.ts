// Property tests of no_file_conflicts (docs/reference/language.md §10.9): it only ever raises PyErrors, and on
// well-formed task lists it agrees with an independent model (fixpoint closure of depends_on, every
// pair of tasks compared).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callBuiltin } from "../../../stdlib/builtins/attributes";
import { PyError } from "../../../stdlib/values/errors";
import { fromJsonValue } from "../../../stdlib/values/json";
import { PyNamespace, type PyValue } from "../../../stdlib/values/value";
import { d, env, f, outcome, t } from "./support";

interface Task {
  readonly id?: string | null;
  readonly depends_on?: readonly string[] | string | null;
  readonly files_owned?: readonly string[] | string | null;
}

const ID_POOL = ["a", "b", "c", "", "task-0", "task-1"] as const;
const FILE_POOL = ["x.py", "y.py", "z"] as const;

const wellFormedTask: fc.Arbitrary<Task> = fc.record(
  {
    id: fc.oneof(fc.constantFrom(...ID_POOL), fc.constant(null)),
    depends_on: fc.oneof(
      fc.array(fc.constantFrom(...ID_POOL, "ghost"), { maxLength: 3 }),
      fc.constantFrom("a", "ab", null),
    ),
    files_owned: fc.oneof(
      fc.array(fc.constantFrom(...FILE_POOL), { maxLength: 3 }),
      fc.constantFrom("x.py", null),
    ),
  },
  { requiredKeys: [] },
);

/** The expected outcome, computed without the implementation's graph walk or set code. */
function model(tasks: readonly Task[]): string {
  const key = (id: string | null) => (id === null ? "None" : `'${id}`);
  const direct = new Map<string, Set<string>>();
  for (const task of tasks) {
    const deps = task.depends_on ?? [];
    direct.set(key(task.id === undefined ? "" : task.id), new Set([...deps].map(key)));
  }
  const closure = new Map([...direct].map(([k, v]) => [k, new Set(v)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const reach of closure.values()) {
      for (const via of [...reach]) {
        for (const next of direct.get(via) ?? []) {
          if (!reach.has(next)) {
            reach.add(next);
            changed = true;
          }
        }
      }
    }
  }
  const name = (i: number) => {
    const id = tasks[i]?.id;
    return id === undefined ? `task-${i}` : id;
  };
  const related = (a: string | null, b: string | null) =>
    closure.get(key(a))?.has(key(b)) === true || closure.get(key(b))?.has(key(a)) === true;
  const files = (i: number) => {
    const owned = tasks[i]?.files_owned ?? [];
    return new Set(typeof owned === "string" ? [owned] : owned);
  };
  for (let i = 0; i < tasks.length; i++) {
    for (let j = i + 1; j < tasks.length; j++) {
      if (related(name(i), name(j))) continue;
      const shared = [...files(i)].filter((x) => files(j).has(x)).sort();
      if (shared.length > 0) {
        const list = `[${shared.map((s) => `'${s}'`).join(", ")}]`;
        return `ValueError: File ownership conflict between independent tasks '${name(i) ?? "None"}' and '${name(j) ?? "None"}': ${list}`;
      }
    }
  }
  return "True";
}

/** Any value the language has, a few levels deep. */
const anyValue: fc.Arbitrary<PyValue> = fc.letrec<{ value: PyValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom<PyValue>(null, true, false, 0, 1, -2, "a", "x.py", "", "task-1"),
    fc.double().map((x): PyValue => f(x)),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.array(tie("value"), { maxLength: 2 }).map((items): PyValue => t(...items)),
    fc
      .array(fc.tuple(fc.constantFrom("id", "depends_on", "files_owned", "k"), tie("value")), {
        maxLength: 3,
      })
      .map((entries): PyValue => d(...entries)),
  ),
})).value;

const wildTask: fc.Arbitrary<PyValue> = fc.oneof(
  fc
    .record({ id: anyValue, depends_on: anyValue, files_owned: anyValue }, { requiredKeys: [] })
    .map((r) => d(...Object.entries(r).map(([k, v]): [PyValue, PyValue] => [k, v]))),
  fc.constantFrom("id", "depends_on").map((k) => new PyNamespace(d([k, ["a"]]))),
  anyValue,
);

describe("no_file_conflicts properties", () => {
  it("returns True or raises a PyError, for any argument and budget", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(wildTask, { maxLength: 6 }), anyValue),
        fc.integer({ min: 1, max: 200 }),
        (tasks, limit) => {
          try {
            expect(callBuiltin("no_file_conflicts", [tasks], null, env(null, limit))).toBe(true);
          } catch (e) {
            expect(e).toBeInstanceOf(PyError);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("is True exactly when no independent pair shares a file, else names the first pair", () => {
    fc.assert(
      fc.property(fc.array(wellFormedTask, { maxLength: 6 }), (tasks) => {
        const value = fromJsonValue(tasks);
        expect(outcome(() => callBuiltin("no_file_conflicts", [value], null, env()))).toBe(model(tasks));
      }),
      { numRuns: 3000 },
    );
  });
});
