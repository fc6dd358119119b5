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

/** V8's limit on the frames an Error captures (node's types declare it, the web page's do not). */
const V8_ERROR = Error as ErrorConstructor & { stackTraceLimit: number };

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
    // A Python-level error: nobody reads its JavaScript stack, and capturing one was most of the
    // cost of raising it (an ensure that raises on a fuzzed result raises on every such call).
    const limit = V8_ERROR.stackTraceLimit;
    V8_ERROR.stackTraceLimit = 0;
    super(message);
    V8_ERROR.stackTraceLimit = limit;
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
