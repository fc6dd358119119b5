// The shape of a conformance case and small constructors used by the case tables.
import type { ExpressionKind } from "../../checker/expr/check-expression";
import type { Type } from "../../stdlib/types/type";
import type { PyErrorKind } from "../../stdlib/values/errors";

type Expectation =
  /** The value's repr; the checker reports no error (listed warnings must be present). */
  | { readonly repr: string; readonly warning?: string }
  /**
   * A run-time error. `static`: the checker must report this code (the expression is still
   * evaluated); `staticMay`: the spec leaves it open whether the checker reports one of these
   * codes; neither: the checker must report no error.
   */
  | {
      readonly error: PyErrorKind;
      readonly message?: string;
      /** One code, or the codes of which the checker must report one (the spec allows either). */
      readonly static?: string | readonly string[];
      readonly staticMay?: readonly string[];
    }
  /** A diagnostic the checker must report (nothing is evaluated). `message` is exact. */
  | { readonly static: string; readonly message?: string };

export interface ExpressionCase {
  readonly expr: string;
  /** JSON object text: name → value (`result` / `item` objects are bound as namespaces). */
  readonly bindings?: string;
  /** Checker types added to (or replacing) those of the bindings: names known only statically. */
  readonly types?: Readonly<Record<string, Type>>;
  readonly kind?: ExpressionKind;
  readonly owner?: string;
  readonly unavailable?: Readonly<Record<string, string>>;
  /** Evaluate with the `$` path data of the docs/reference/language.md §10.5 example. */
  readonly paths?: boolean;
  /** Why CPython (the differential oracle) legitimately differs; such cases are not re-checked. */
  readonly divergence?: string;
  readonly expect: Expectation;
}

type Extra = Omit<ExpressionCase, "expr" | "expect">;

/** A value case. */
export function val(expr: string, repr: string, extra: Extra & { warning?: string } = {}): ExpressionCase {
  const { warning, ...rest } = extra;
  return { expr, ...rest, expect: warning === undefined ? { repr } : { repr, warning } };
}

/** A run-time error case that the checker does not see statically. */
export function err(expr: string, error: PyErrorKind, message?: string, extra: Extra = {}): ExpressionCase {
  return { expr, ...extra, expect: message === undefined ? { error } : { error, message } };
}

/** A run-time error case that the checker must also report as `code`. */
export function errStatic(
  expr: string,
  error: PyErrorKind,
  message: string | undefined,
  code: string | readonly string[],
  extra: Extra = {},
): ExpressionCase {
  return { expr, ...extra, expect: { error, ...(message === undefined ? {} : { message }), static: code } };
}

/** A run-time error case where the spec leaves a static report open (one of `codes` or none). */
export function errMaybe(
  expr: string,
  error: PyErrorKind,
  message: string | undefined,
  codes: readonly string[],
  extra: Extra = {},
): ExpressionCase {
  return {
    expr,
    ...extra,
    expect: { error, ...(message === undefined ? {} : { message }), staticMay: codes },
  };
}

/** A static diagnostic case. */
export function diag(expr: string, code: string, message?: string, extra: Extra = {}): ExpressionCase {
  return { expr, ...extra, expect: message === undefined ? { static: code } : { static: code, message } };
}

/** Python's repr of an ASCII/BMP string, for messages that quote the expression. */
function quote(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of s) {
    if (ch === "\\") out += "\\\\";
    else if (ch === q) out += `\\${q}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else out += ch;
  }
  return q + out + q;
}

/** An EXPR-SYNTAX case in an `ensure` expression with its exact detail text. */
export function syntax(expr: string, detail?: string): ExpressionCase {
  const message =
    detail === undefined ? undefined : `Cannot compile ensure expression ${quote(expr)}: ${detail}`;
  return diag(expr, "EXPR-SYNTAX", message, { kind: "ensure" });
}
