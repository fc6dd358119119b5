// Outcomes of field, attribute, subscript and method-call typing: besides EXPR-TYPE failures
// they can name an undeclared contract field or an unknown method, which the checker reports
// with their own codes and did-you-mean candidates.
import type { Failure } from "./outcome";
import type { TypeRuleResult } from "./rule";
import { ANY, type RecordType, type Type } from "./type";
import { members, union } from "./union";

interface UnknownField {
  readonly ok: false;
  readonly code: "EXPR-UNKNOWN-FIELD";
  readonly record: RecordType;
  readonly field: string;
}

export interface UnknownMethod {
  readonly ok: false;
  readonly code: "EXPR-UNKNOWN-METHOD";
  /** Python type name of the receiver (`str`, `dict_keys`, …). */
  readonly receiver: string;
  readonly name: string;
  /** Valid method names of the receiver, in catalogue order. */
  readonly candidates: readonly string[];
}

export type AccessFailure = Failure | UnknownField | UnknownMethod;
export type AccessResult = { readonly ok: true; readonly type: Type } | AccessFailure;

const PRIORITY: Readonly<Record<AccessFailure["code"], number>> = {
  "EXPR-UNKNOWN-FIELD": 0,
  "EXPR-UNKNOWN-METHOD": 1,
  "EXPR-ARITY": 2,
  "EXPR-TYPE": 3,
};

/** Union of the successes; when all members fail, the first failure of the most specific code. */
function combineAccess(outcomes: readonly (AccessResult | TypeRuleResult)[]): AccessResult {
  const good: Type[] = [];
  let best: AccessFailure | null = null;
  for (const o of outcomes) {
    if (o.ok) good.push(o.type);
    else if (best === null || PRIORITY[o.code] < PRIORITY[best.code]) best = o;
  }
  if (good.length > 0 || best === null) return { ok: true, type: union(...good) };
  return best;
}

/** Applies `f` to each member of `t` (`any` → `any`). */
export function liftAccess(t: Type, f: (m: Type) => AccessResult | TypeRuleResult): AccessResult {
  if (t.k === "any") return { ok: true, type: ANY };
  return combineAccess(members(t).map(f));
}
