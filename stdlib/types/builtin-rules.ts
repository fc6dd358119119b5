// Typing rules of the builtin functions (docs/reference/language.md §10.9), keyed by builtin name. The registry
// (stdlib/builtins/registry.ts) attaches them to its entries; the expression checker calls them
// after the arity check. Each returns the result type or the Python TypeError text of a call that
// fails for every possible argument type.
import { argAt, requireIndex, requireStr, tname } from "./args";
import { iterationRule } from "./iterate";
import { isNumber } from "./kinds";
import { binaryType, compareType } from "./operators";
import { combine, fail, lift1, ok, requireArg } from "./outcome";
import type { BuiltinTypeRule, TypeRuleResult } from "./rule";
import { ANY, BOOL, FLOAT, INT, STR, type Type } from "./type";
import { members, union } from "./union";

const SIZED: ReadonlySet<string> = new Set([
  "str",
  "list",
  "tuple",
  "tupleOf",
  "dict",
  "record",
  "ns",
  "keys",
  "values",
  "items",
]);

/** The iterable argument at position 0 (`'<type>' object is not iterable`). */
function iterableArg(args: readonly Type[]): TypeRuleResult {
  const it = args[0];
  if (it === undefined) return ok(ANY);
  const r = iterationRule(it);
  return r.ok ? r : { ...r, arg: 0 };
}

/**
 * Two elements of the iterable are compared with `op`: when that fails for every element type,
 * any iterable with two or more elements fails (reported: the guarantee of docs/reference/language.md §10.12.3 wins).
 */
function elementsOrderable(op: "<" | ">", elem: Type): TypeRuleResult {
  const cmp = compareType(op, elem, elem);
  return cmp.ok ? cmp : { ...cmp, arg: 0, failsFrom: 2 };
}

function minMax(which: "min" | "max"): BuiltinTypeRule {
  return (args, keywords) => {
    const def = keywords.get("default");
    if (args.length === 1) {
      const elem = iterableArg(args);
      if (!elem.ok) return elem;
      const order = elementsOrderable(which === "min" ? "<" : ">", elem.type);
      if (!order.ok) return order;
      return ok(def === undefined ? elem.type : union(elem.type, def));
    }
    if (args.length < 2) return ok(ANY);
    if (def !== undefined)
      return fail(`Cannot specify a default for ${which}() with multiple positional arguments`, "default");
    // The first comparison is always `args[1] <op> args[0]` (the new item on the left).
    const cmp = compareType(which === "min" ? "<" : ">", args[1] as Type, args[0] as Type);
    if (!cmp.ok) return { ...cmp, arg: 1 };
    return ok(union(...args));
  };
}

const sum: BuiltinTypeRule = (args, keywords) => {
  const startArg = argAt(args, keywords, 1, "start");
  const start = startArg?.type ?? INT;
  if (startArg !== undefined && start.k !== "any" && members(start).every((m) => m.k === "str")) {
    return fail("sum() can't sum strings [use ''.join(seq) instead]", startArg.at);
  }
  const elem = iterableArg(args);
  if (!elem.ok) return elem;
  // An empty iterable gives `start`; otherwise the running total start + e + e + …
  // A non-empty iterable whose elements can never be added fails (docs/reference/language.md §10.12.3: the guarantee wins
  // over the empty-iterable exception), so report it.
  const once = binaryType("+", start, elem.type);
  if (!once.ok) return { ...once, arg: 0, failsFrom: 1 };
  const twice = binaryType("+", once.type, elem.type);
  return ok(union(start, once.type, twice.ok ? twice.type : once.type));
};

const round: BuiltinTypeRule = (args, keywords) => {
  const x = args[0];
  const nd = argAt(args, keywords, 1, "ndigits");
  const ndTypes = nd === undefined || nd.type.k === "any" ? null : members(nd.type);
  const withDigits = ndTypes === null ? nd !== undefined : ndTypes.some((m) => m.k !== "none");
  const withoutDigits =
    ndTypes === null ? nd === undefined || nd.type.k === "any" : ndTypes.some((m) => m.k === "none");
  const result =
    x === undefined
      ? ok(ANY)
      : lift1(x, (m) => {
          if (m.k === "bool" || m.k === "int") return ok(INT);
          if (m.k === "float")
            return ok(union(...(withoutDigits ? [INT] : []), ...(withDigits ? [FLOAT] : [])));
          return fail(`type ${tname(m)} doesn't define __round__ method`, 0);
        });
  if (!result.ok) return result;
  return requireIndex(nd, true) ?? result;
};

function pathArg(name: string): BuiltinTypeRule {
  return (args) =>
    requireStr(
      args[0] === undefined ? undefined : { type: args[0], at: 0 },
      (m) => `${name}() argument must be str, not ${tname(m)}`,
    ) ?? ok(BOOL);
}

/** Element kinds `vars()` accepts: dicts (JSON objects, contract records) and namespaces. */
const TASK_KINDS: ReadonlySet<string> = new Set(["dict", "record", "ns"]);

/** no_file_conflicts(tasks): an iterable of task objects; a non-empty one of anything else fails. */
const noFileConflicts: BuiltinTypeRule = (args, keywords) => {
  const tasks = argAt(args, keywords, 0, "tasks");
  if (tasks === undefined) return ok(BOOL);
  const elem = iterationRule(tasks.type);
  if (!elem.ok) return { ...elem, arg: tasks.at };
  const task = requireArg(
    elem.type,
    (m) => TASK_KINDS.has(m.k),
    () => "vars() argument must have __dict__ attribute",
    tasks.at,
  );
  return task === null ? ok(BOOL) : { ...task, failsFrom: 1 };
};

/** Argument kinds `os.stat` takes: a path, or an int (a file descriptor). */
const STAT_KINDS: ReadonlySet<string> = new Set(["str", "int", "bool"]);

/**
 * vocabulary_compliance(path, files_changed, …): a path `os.stat` refuses always fails (the
 * vocabulary file is looked up first). The changed files are only read when the vocabulary has
 * entries and the list is not empty, so no argument type of theirs always fails.
 */
const vocabularyCompliance: BuiltinTypeRule = (args, keywords) => {
  const path = argAt(args, keywords, 0, "path");
  if (path === undefined) return ok(BOOL);
  return (
    requireArg(
      path.type,
      (m) => STAT_KINDS.has(m.k),
      (m) => `stat: path should be string, bytes, os.PathLike or integer, not ${tname(m)}`,
      path.at,
    ) ?? ok(BOOL)
  );
};

const rules: Record<string, BuiltinTypeRule> = {
  len: (args) =>
    requireArg(
      args[0],
      (m) => SIZED.has(m.k),
      (m) => `object of type '${tname(m)}' has no len()`,
      0,
    ) ?? ok(INT),
  bool: () => ok(BOOL),
  int: (args) =>
    requireArg(
      args[0],
      (m) => isNumber(m) || m.k === "str",
      (m) => `int() argument must be a string, a bytes-like object or a real number, not '${tname(m)}'`,
      0,
    ) ?? ok(INT),
  float: (args) =>
    requireArg(
      args[0],
      (m) => isNumber(m) || m.k === "str",
      (m) => `float() argument must be a string or a real number, not '${tname(m)}'`,
      0,
    ) ?? ok(FLOAT),
  str: () => ok(STR),
  min: minMax("min"),
  max: minMax("max"),
  any: (args) => {
    const r = iterableArg(args);
    return r.ok ? ok(BOOL) : r;
  },
  all: (args) => {
    const r = iterableArg(args);
    return r.ok ? ok(BOOL) : r;
  },
  sum,
  abs: (args) => {
    const x = args[0];
    if (x === undefined) return ok(ANY);
    return combine(
      (x.k === "any" ? [x] : members(x)).map((m) => {
        if (m.k === "any") return ok(ANY);
        if (m.k === "float") return ok(FLOAT);
        if (m.k === "bool" || m.k === "int") return ok(INT);
        return fail(`bad operand type for abs(): '${tname(m)}'`, 0);
      }),
    );
  },
  round,
  sorted: (args, keywords) => {
    const elem = iterableArg(args);
    if (!elem.ok) return elem;
    const order = elementsOrderable("<", elem.type);
    if (!order.ok) return order;
    const reverse = keywords.get("reverse");
    return (
      requireIndex(reverse === undefined ? undefined : { type: reverse, at: "reverse" }, false) ??
      ok({ k: "list", elem: elem.type })
    );
  },
  file_exists: pathArg("file_exists"),
  file_contains: pathArg("file_contains"),
  no_file_conflicts: noFileConflicts,
  // An empty (falsy) plan is True whatever its type, and the threshold is only compared when no
  // critical item is missing: no argument type always fails.
  plan_completion: () => ok(BOOL),
  vocabulary_compliance: vocabularyCompliance,
};

/** Null-prototype table: a lookup of "constructor" or "toString" finds nothing. */
export const builtinTypeRules: Readonly<Record<string, BuiltinTypeRule>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, BuiltinTypeRule>, rules),
);
