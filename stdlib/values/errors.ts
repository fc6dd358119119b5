// Run-time errors of the expression language (docs/reference/language.md §10.13). An evaluation that fails
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
  /** The evaluation budget (docs/reference/language.md §10.15) ran out; not a Python exception kind. */
  | "BudgetExceeded";

export class PyError extends Error {
  /**
   * `answer`: the builtin raises this error as its answer, not as a failure (no_file_conflicts says
   * "there is a conflict" by raising ValueError, docs/reference/language.md §10.9), so that a consumer of the
   * interpreter's events can tell the two apart without reading the message.
   */
  constructor(
    readonly kind: PyErrorKind,
    message: string,
    readonly answer: boolean = false,
    /**
     * The messages of a `ValueError([...])` raised with a list of strings (the ensure helpers
     * plan_completion and vocabulary_compliance): an ensure lists each as its own violation, every
     * other expression reads the error's message, the list's repr (docs/reference/language.md §10.9).
     */
    readonly violations: readonly string[] | null = null,
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
