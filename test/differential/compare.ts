// Comparison of our outcome with CPython's (through the oracle) for one differential case.
import { errorKind, errorMessage, isArityMessage, type OracleResult } from "../support/oracle";

/** An outcome line: the CLI batch format and the oracle's (`{"repr"}` or `{"error": "Kind: msg"}`). */
export type Outcome = { readonly repr: string } | { readonly error: string };

export type Verdict =
  | { readonly kind: "same" }
  /** Not comparable: an evaluation budget or CPython's own recursion limit was reached. */
  | { readonly kind: "skipped"; readonly reason: string }
  | { readonly kind: "different"; readonly what: "value" | "kind" | "message" };

const C_SIZE_LIMIT =
  /^OverflowError: (Python int too large to convert to C \w+|cannot fit 'int' into an index-sized integer)$/;

const UNCOMPARABLE_KINDS = new Set(["BudgetExceeded", "RecursionError", "MemoryError"]);

export function compareOutcomes(ours: Outcome, cpython: OracleResult): Verdict {
  for (const o of [ours, cpython]) {
    if ("error" in o && UNCOMPARABLE_KINDS.has(errorKind(o.error))) {
      return { kind: "skipped", reason: errorKind(o.error) };
    }
  }
  // CPython's machine-size limits on integer arguments (a replace count or slice bound beyond
  // 2^63) are not language semantics: ours may legitimately accept such an argument.
  if (
    "error" in cpython &&
    C_SIZE_LIMIT.test(cpython.error) &&
    !("error" in ours && ours.error === cpython.error)
  ) {
    return { kind: "skipped", reason: "CPython size limit" };
  }
  if ("repr" in ours) {
    return "repr" in cpython && cpython.repr === ours.repr
      ? { kind: "same" }
      : { kind: "different", what: "value" };
  }
  if (!("error" in cpython)) return { kind: "different", what: "value" };
  const kind = errorKind(ours.error);
  if (kind !== errorKind(cpython.error)) return { kind: "different", what: "kind" };
  // Parse errors: the kind is what matters (our syntax details are documented, CPython's differ).
  if (kind === "SyntaxError") return { kind: "same" };
  const mine = errorMessage(ours.error);
  const theirs = errorMessage(cpython.error);
  if (mine === theirs || (isArityMessage(mine) && isArityMessage(theirs))) return { kind: "same" };
  return { kind: "different", what: "message" };
}
