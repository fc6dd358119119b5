// Run-time errors of the expression language (docs/language.md §10.13). An evaluation that fails
// throws a PyError; nothing else may escape the evaluator.

export type PyErrorKind =
  | "TypeError"
  | "ValueError"
  | "KeyError"
  | "IndexError"
  | "AttributeError"
  | "ZeroDivisionError"
  | "OverflowError"
  | "NameError"
  /** The evaluation budget (docs/language.md §10.15) ran out; not a Python exception kind. */
  | "BudgetExceeded";

export class PyError extends Error {
  constructor(
    readonly kind: PyErrorKind,
    message: string,
  ) {
    super(message);
  }
  /** `<Kind>: <message>`, as Python prints an uncaught exception's last line. */
  override toString(): string {
    return `${this.kind}: ${this.message}`;
  }
}

export function typeError(message: string): PyError {
  return new PyError("TypeError", message);
}
export function valueError(message: string): PyError {
  return new PyError("ValueError", message);
}
