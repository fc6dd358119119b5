// Nothing but PyError may leave an evaluation (docs/reference/language.md §10.13). Other JS errors are converted:
// - RangeError (call stack exhausted, string or array too long): kind "BudgetExceeded", since the
//   evaluation ran out of a resource, message `expression exceeded an evaluation limit (<js text>)`;
// - anything else (an internal bug): kind "TypeError", message `internal error: <js text>`.
import { PyError } from "../../stdlib/values/errors";
import type { PyValue } from "../../stdlib/values/value";
import type { Code, CompiledExpression, EvalContext } from "./context";

function toPyError(e: unknown): PyError {
  if (e instanceof PyError) return e;
  if (e instanceof RangeError) {
    return new PyError("BudgetExceeded", `expression exceeded an evaluation limit (${e.message})`);
  }
  const text = e instanceof Error ? e.message : String(e);
  return new PyError("TypeError", `internal error: ${text}`);
}

export function guard(root: Code): CompiledExpression {
  return (ctx: EvalContext): PyValue => {
    try {
      return root(ctx, null);
    } catch (e) {
      throw toPyError(e);
    }
  };
}

export function guardedFailure(e: unknown): CompiledExpression {
  const error = toPyError(e);
  return () => {
    throw error;
  };
}
