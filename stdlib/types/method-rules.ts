// Typing rules of the methods (docs/reference/language.md §10.10), keyed "<receiver>.<name>" with receiver one of
// str, list, tuple, dict (dict methods also serve namespaces and records). The receiver type given
// to a rule is a member of that kind (or a union/any containing it); arity is checked before.
import { argAt, requireIndex, requireSliceBound, requireStr, tname } from "./args";
import { iterationRule } from "./iterate";
import { isUnhashable, unhashablePart } from "./kinds";
import { fail, ok, requireArg } from "./outcome";
import type { MethodTypeRule } from "./rule";
import { ANY, BOOL, INT, NONE, STR, type Type } from "./type";
import { members, union } from "./union";

type Arg = { type: Type; at: number | string } | undefined;

const pos = (args: readonly Type[], i: number): Arg => {
  const t = args[i];
  return t === undefined ? undefined : { type: t, at: i };
};

/** Key and value types of a mapping receiver (dict, record, namespace; `any` otherwise). */
function mappingParts(receiver: Type): { key: Type; value: Type } {
  const keys: Type[] = [];
  const values: Type[] = [];
  for (const m of receiver.k === "any" ? [] : members(receiver)) {
    if (m.k === "dict") {
      keys.push(m.key);
      values.push(m.value);
    } else if (m.k === "record") {
      keys.push(STR);
      values.push(ANY);
    } else if (m.k === "ns") {
      const inner = mappingParts(m.of);
      keys.push(inner.key);
      values.push(inner.value);
    }
  }
  return keys.length === 0 ? { key: ANY, value: ANY } : { key: union(...keys), value: union(...values) };
}

function affix(which: "startswith" | "endswith"): MethodTypeRule {
  return (_r, args) =>
    requireArg(
      args[0],
      (m) => m.k === "str" || m.k === "tuple" || m.k === "tupleOf",
      (m) => `${which} first arg must be str or a tuple of str, not ${tname(m)}`,
      0,
    ) ??
    requireSliceBound(pos(args, 1)) ??
    requireSliceBound(pos(args, 2)) ??
    ok(BOOL);
}

function strip(which: string): MethodTypeRule {
  return (_r, args) => requireStr(pos(args, 0), () => `${which} arg must be None or str`, true) ?? ok(STR);
}

function search(result: Type): MethodTypeRule {
  return (_r, args) =>
    requireStr(pos(args, 0), (m) => `must be str, not ${tname(m)}`) ??
    requireSliceBound(pos(args, 1)) ??
    requireSliceBound(pos(args, 2)) ??
    ok(result);
}

const predicate: MethodTypeRule = () => ok(BOOL);
const toStr: MethodTypeRule = () => ok(STR);

/** list/tuple `index(x, start, end)`: bounds must be integers (no None, as CPython). */
const seqIndex: MethodTypeRule = (_r, args) =>
  requireSliceBound(pos(args, 1), false) ?? requireSliceBound(pos(args, 2), false) ?? ok(INT);

const rules: Record<string, MethodTypeRule> = {
  "str.startswith": affix("startswith"),
  "str.endswith": affix("endswith"),
  "str.lower": toStr,
  "str.upper": toStr,
  "str.strip": strip("strip"),
  "str.lstrip": strip("lstrip"),
  "str.rstrip": strip("rstrip"),
  "str.split": (_r, args, keywords) =>
    requireStr(argAt(args, keywords, 0, "sep"), (m) => `must be str or None, not ${tname(m)}`, true) ??
    requireIndex(argAt(args, keywords, 1, "maxsplit"), false) ??
    ok({ k: "list", elem: STR }),
  "str.join": (_r, args) => {
    const it = args[0];
    if (it === undefined) return ok(STR);
    const elem = iterationRule(it);
    if (!elem.ok) return fail("can only join an iterable", 0);
    // Elements that can never be strings fail on the first one (docs/reference/language.md §10.12.3: the guarantee wins).
    const kinds = members(elem.type);
    if (!kinds.some((m) => m.k === "any" || m.k === "str"))
      return {
        ...fail(`sequence item 0: expected str instance, ${tname(kinds[0] ?? elem.type)} found`, 0),
        failsFrom: 1,
      };
    return ok(STR);
  },
  "str.replace": (_r, args) =>
    requireStr(pos(args, 0), (m) => `replace() argument 1 must be str, not ${tname(m)}`) ??
    requireStr(pos(args, 1), (m) => `replace() argument 2 must be str, not ${tname(m)}`) ??
    requireIndex(pos(args, 2), false) ??
    ok(STR),
  "str.count": search(INT),
  "str.find": search(INT),
  "str.isdigit": predicate,
  "str.isalpha": predicate,
  "str.isalnum": predicate,
  "str.isspace": predicate,
  "list.count": () => ok(INT),
  "list.index": seqIndex,
  "tuple.count": () => ok(INT),
  "tuple.index": seqIndex,
  "dict.get": (receiver, args, keywords) => {
    const key = args[0];
    if (key !== undefined && key.k !== "any" && members(key).every(isUnhashable)) {
      return fail(`unhashable type: '${tname(unhashablePart(members(key)[0] as Type))}'`, 0);
    }
    const def = argAt(args, keywords, 1, "default");
    return ok(union(mappingParts(receiver).value, def?.type ?? NONE));
  },
  "dict.keys": (receiver) => ok({ k: "keys", key: mappingParts(receiver).key }),
  "dict.values": (receiver) => ok({ k: "values", value: mappingParts(receiver).value }),
  "dict.items": (receiver) => {
    const { key, value } = mappingParts(receiver);
    return ok({ k: "items", key, value });
  },
};

/** Null-prototype table: a lookup of "str.constructor" or "toString" finds nothing. */
export const methodTypeRules: Readonly<Record<string, MethodTypeRule>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, MethodTypeRule>, rules),
);

export type MethodReceiverKind = "str" | "list" | "tuple" | "dict";

/** The method names of a receiver kind, in catalogue order (did-you-mean candidates). */
export function methodNames(receiver: MethodReceiverKind): string[] {
  const prefix = `${receiver}.`;
  return Object.keys(rules)
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length));
}

export function hasMethod(receiver: MethodReceiverKind, name: string): boolean {
  return Object.hasOwn(rules, `${receiver}.${name}`);
}
