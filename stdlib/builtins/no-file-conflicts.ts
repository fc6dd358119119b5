// no_file_conflicts(tasks) (docs/reference/language.md §10.9): the ensure helper of decompose steps. It follows
// the reference's helper step by step, so the same inputs raise the same errors in the same order,
// with three deliberate fixes (docs/reference/divergences.md): a task without `id` is named `task-<its own
// index>` in the message, a string `files_owned` is one file (not one per character), and a null
// `depends_on` or `files_owned` is empty (instead of "'NoneType' object is not iterable").
import { dictGet, hashKey } from "../values/dict";
import { PyError, typeError } from "../values/errors";
import { iterate } from "../values/iteration";
import { repr, str as toStr } from "../values/repr";
import { type DictKey, PyDict, PyNamespace, type PyValue } from "../values/value";
import { pySorted } from "./aggregates";
import { elements } from "./common";
import type { EvalEnv } from "./env";

/** A Python set: hashed element → the first element of its class of equal ones. */
type ValueSet = ReadonlyMap<DictKey, PyValue>;

const EMPTY: ValueSet = new Map();

/** Python's `vars(task)`: a dict as it is, a namespace through its attributes. */
function asMapping(task: PyValue): PyDict {
  if (task instanceof PyDict) return task;
  if (task instanceof PyNamespace) return task.dict;
  throw typeError("vars() argument must have __dict__ attribute");
}

/** `set(value)`: TypeError for a non-iterable or an unhashable element. */
function toSet(value: PyValue, env: EvalEnv): ValueSet {
  const out = new Map<DictKey, PyValue>();
  const it = iterate(value, env.budget);
  for (let r = it.next(); !r.done; r = it.next()) {
    const key = hashKey(r.value);
    if (!out.has(key)) out.set(key, r.value);
  }
  return out;
}

/** `set(task.get(field, []))`, except that null is empty and (for files) a string is one element. */
function fieldSet(task: PyDict, field: "depends_on" | "files_owned", env: EvalEnv): ValueSet {
  const value = dictGet(task, field);
  if (value === undefined || value === null) return EMPTY;
  if (field === "files_owned" && typeof value === "string") return new Map([[hashKey(value), value]]);
  return toSet(value, env);
}

/**
 * The reference's dependency map (`id`, or "" without one, → its `depends_on`; a later task with
 * the same id replaces the earlier) and, per id, the ids reachable through one or more edges.
 * Unknown ids are reachable but lead nowhere; cycles terminate. Computed on demand, without recursion.
 */
class Dependencies {
  private readonly direct = new Map<DictKey, ValueSet>();
  private readonly reachable = new Map<DictKey, ReadonlySet<DictKey>>();

  constructor(private readonly env: EvalEnv) {}

  add(id: PyValue, dependsOn: ValueSet): void {
    this.direct.set(hashKey(id), dependsOn);
  }

  /** Whether either task reaches the other (the pair may then share files). */
  related(a: PyValue, b: PyValue): boolean {
    const ka = hashKey(a);
    const kb = hashKey(b);
    return this.reach(ka).has(kb) || this.reach(kb).has(ka);
  }

  private reach(start: DictKey): ReadonlySet<DictKey> {
    const known = this.reachable.get(start);
    if (known !== undefined) return known;
    const found = new Set<DictKey>();
    if (this.direct.has(start)) {
      const seen = new Set<DictKey>([start]);
      const stack: DictKey[] = [start];
      for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
        const next = this.direct.get(node) ?? EMPTY;
        this.env.budget.charge(next.size + 1);
        for (const dep of next.keys()) {
          found.add(dep);
          if (!seen.has(dep)) {
            seen.add(dep);
            stack.push(dep);
          }
        }
      }
    }
    this.reachable.set(start, found);
    return found;
  }
}

/**
 * `a & b` as CPython computes it: the smaller set is walked (the right one when both have the same
 * size) and its elements are kept, which decides between equal elements such as 1 and 1.0.
 */
function intersection(a: ValueSet, b: ValueSet, env: EvalEnv): PyValue[] {
  const [walked, probed] = b.size > a.size ? [a, b] : [b, a];
  env.budget.charge(walked.size);
  const out: PyValue[] = [];
  for (const [key, value] of walked) if (probed.has(key)) out.push(value);
  return out;
}

/** `task.get("id", absent)`: a present id is used whatever it is, null included. */
function idOf(task: PyDict, absent: string): PyValue {
  const id = dictGet(task, "id");
  return id === undefined ? absent : id;
}

export function noFileConflicts(tasks: PyValue, env: EvalEnv): boolean {
  const list: PyDict[] = [];
  for (const task of elements(tasks, env)) list.push(asMapping(task));

  const dependencies = new Dependencies(env);
  for (const task of list) {
    // `dep_map[tid] = set(...)`: the right-hand side is evaluated before the id is hashed.
    const dependsOn = fieldSet(task, "depends_on", env);
    dependencies.add(idOf(task, ""), dependsOn);
  }

  const names = list.map((task, i) => idOf(task, `task-${i}`));
  const owned = new Map<number, ValueSet>();
  const ownedBy = (i: number): ValueSet => {
    let files = owned.get(i);
    if (files === undefined) {
      files = fieldSet(list[i] as PyDict, "files_owned", env);
      owned.set(i, files);
    }
    return files;
  };

  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      env.budget.charge(1);
      const first = names[i] as PyValue;
      const second = names[j] as PyValue;
      if (dependencies.related(first, second)) continue;
      const shared = intersection(ownedBy(i), ownedBy(j), env);
      if (shared.length > 0) {
        const files = repr(pySorted(shared, undefined, env), env.budget);
        // The conflict is this builtin's answer ("no"), raised as the reference raises it.
        throw new PyError(
          "ValueError",
          `File ownership conflict between independent tasks '${toStr(first, env.budget)}' and '${toStr(second, env.budget)}': ${files}`,
          true,
        );
      }
    }
  }
  return true;
}
