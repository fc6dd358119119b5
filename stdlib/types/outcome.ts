// Lifting per-member typing rules to unions (docs/reference/language.md §10.12.3): an operation fails
// statically only when it fails for every combination of members; `any` never fails.
import type { TypeRuleResult } from "./rule";
import { ANY, type Type } from "./type";
import { members, union } from "./union";

export type Failure = Extract<TypeRuleResult, { ok: false }>;

export function ok(type: Type): TypeRuleResult {
  return { ok: true, type };
}

export function fail(message: string, arg?: number | string): Failure {
  return arg === undefined
    ? { ok: false, code: "EXPR-TYPE", message }
    : { ok: false, code: "EXPR-TYPE", message, arg };
}

/** Combines member outcomes: the union of the successes, else the first failure. */
export function combine(outcomes: readonly TypeRuleResult[]): TypeRuleResult {
  const good: Type[] = [];
  let firstFailure: Failure | null = null;
  for (const o of outcomes) {
    if (o.ok) good.push(o.type);
    else firstFailure ??= o;
  }
  if (good.length > 0 || firstFailure === null) return ok(union(...good));
  return firstFailure;
}

/** Applies `f` to every member of `t` (`any` → `any`). */
export function lift1(t: Type, f: (m: Type) => TypeRuleResult): TypeRuleResult {
  if (t.k === "any") return ok(ANY);
  return combine(members(t).map(f));
}

/** Applies `f` to every pair of members of `a` and `b` (either `any` → `any`). */
export function lift2(a: Type, b: Type, f: (x: Type, y: Type) => TypeRuleResult): TypeRuleResult {
  if (a.k === "any" || b.k === "any") return ok(ANY);
  const outcomes: TypeRuleResult[] = [];
  for (const x of members(a)) for (const y of members(b)) outcomes.push(f(x, y));
  return combine(outcomes);
}

/** Checks an argument that must satisfy `accept` member-wise; `any` and unions with one good member pass. */
export function requireArg(
  t: Type | undefined,
  accept: (m: Type) => boolean,
  message: (m: Type) => string,
  arg?: number | string,
): Failure | null {
  if (t === undefined || t.k === "any") return null;
  const ms = members(t);
  if (ms.some(accept)) return null;
  const first = ms[0] as Type;
  return fail(message(first), arg);
}
