// Runs one expression the way stratumc does: check, then (unless it did not parse) compile and
// evaluate. The outcome is rendered like the differential oracle's: a repr or `<Kind>: <message>`.
import {
  checkExpression,
  type ExprDiagnostic,
  type ExprEnvironment,
} from "../../checker/expr/check-expression";
import type { Expr } from "../../grammar/ast";
import type { PathSource } from "../../interpreter/eval/compile";
import { compileExpression } from "../../interpreter/eval/compile";
import { evaluate } from "../../interpreter/eval/evaluate";
import { PyError } from "../../stdlib/values/errors";
import { repr } from "../../stdlib/values/repr";
import type { PyValue } from "../../stdlib/values/value";

/** Diagnostics that mean the text did not parse (nothing can be evaluated). */
const PARSE_CODES: ReadonlySet<string> = new Set(["EXPR-SYNTAX", "EXPR-TOO-LONG", "EXPR-TOO-DEEP"]);

export type Evaluation =
  | { readonly repr: string }
  | { readonly error: string; readonly kind: string; readonly message: string };

export interface RunOutcome {
  readonly diagnostics: readonly ExprDiagnostic[];
  /** Codes of the error-severity diagnostics. */
  readonly errorCodes: readonly string[];
  readonly expr: Expr | null;
  /** Absent when the text did not parse. */
  readonly evaluation?: Evaluation;
}

export interface RunOptions {
  readonly paths?: PathSource;
  readonly budget?: number;
}

/** Evaluates an already checked expression; PyErrors become outcomes, anything else is thrown. */
export function evaluateChecked(
  expr: Expr,
  names: ReadonlyMap<string, PyValue>,
  options: RunOptions = {},
): Evaluation {
  const compiled = compileExpression(expr);
  try {
    const value = evaluate(compiled, names, {
      ...(options.paths === undefined ? {} : { paths: options.paths }),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
    });
    return { repr: repr(value) };
  } catch (e) {
    if (e instanceof PyError) return { error: `${e.kind}: ${e.message}`, kind: e.kind, message: e.message };
    throw e;
  }
}

/** Checks `text` in `env`; evaluates it with `names` whenever it parsed (even with type errors). */
export function runExpression(
  text: string,
  env: ExprEnvironment,
  names: ReadonlyMap<string, PyValue>,
  options: RunOptions = {},
): RunOutcome {
  const checked = checkExpression(text, env);
  const errorCodes = checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
  const parsed = checked.expr !== null && !errorCodes.some((c) => PARSE_CODES.has(c));
  if (!parsed || checked.expr === null)
    return { diagnostics: checked.diagnostics, errorCodes, expr: checked.expr };
  return {
    diagnostics: checked.diagnostics,
    errorCodes,
    expr: checked.expr,
    evaluation: evaluateChecked(checked.expr, names, options),
  };
}
