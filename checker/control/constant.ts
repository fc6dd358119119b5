// Whether an expression has the same truth value on every evaluation, decided from its syntax alone:
// literals, `not`, `and`/`or` and literal containers. Anything that reads a `$` path, a name or a
// builtin is not constant (null). An expression that could raise is not constant either: a
// raising skip_if means "not skipped" at run time, which a fold would get wrong.
import type { Expr } from "../../grammar/ast";
import { truthy } from "../../stdlib/values/truth";

/** The truth value every evaluation of `e` gives, or null when it may vary (or raise). */
export function constantTruth(e: Expr): boolean | null {
  switch (e.kind) {
    case "Constant":
      return truthy(e.value);
    case "UnaryOp":
      if (e.op !== "not") return null;
      return negate(constantTruth(e.operand));
    case "BoolOp":
      return boolOp(e.op, e.values);
    case "List":
    case "Tuple":
      return allConstant(e.elts) ? e.elts.length > 0 : null;
    case "Dict":
      // Keys are hashed at run time: only literal scalars are safe to fold.
      return allConstant(e.keys) && allConstant(e.values) && e.keys.every(isScalarKey)
        ? e.keys.length > 0
        : null;
    default:
      return null;
  }
}

function negate(v: boolean | null): boolean | null {
  return v === null ? null : !v;
}

/** `a and b`: the first falsy operand decides (or the last); `or` the first truthy one. */
function boolOp(op: "and" | "or", values: readonly Expr[]): boolean | null {
  for (const v of values) {
    const t = constantTruth(v);
    if (t === null) return null;
    if (op === "and" && !t) return false;
    if (op === "or" && t) return true;
  }
  return op === "and";
}

function allConstant(list: readonly Expr[]): boolean {
  return list.every((x) => constantTruth(x) !== null);
}

function isScalarKey(e: Expr): boolean {
  return e.kind === "Constant";
}
