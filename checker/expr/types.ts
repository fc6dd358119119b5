// Public types of the expression checker (docs: api.md, checker/expr).
import type { Expr, Path, PathRef } from "../../grammar/ast";
import type { Type } from "../../stdlib/types/type";

export type ExpressionKind =
  | "ensure"
  | "skip_if"
  | "exit_criterion"
  | "accumulate"
  | "accumulate_key"
  /** A scored iteration loop's score (docs/reference/language.md §11.2), over one iteration's `result`. */
  | "score_expr"
  /** A quorum step's grouping key (docs/reference/language.md §6.5), over one run's `result`. */
  | "agree_on"
  /** A property's expression (docs/guides/testing-a-spec.md), over the property state. */
  | "property";

export interface ExprEnvironment {
  /** Absent: a generic expression (messages then say "expression"). */
  readonly kind?: ExpressionKind;
  /** The position names bound here (`result`, `item`, accumulator names) and their types. */
  readonly names: ReadonlyMap<string, Type>;
  /** Position names that exist but are not bound here, with the reason (EXPR-NAME-UNAVAILABLE). */
  readonly unavailable?: ReadonlyMap<string, string>;
  /** The type of a well-formed `$` path (default: any). */
  readonly pathType?: (ref: PathRef, node: Path) => Type;
  /**
   * The property state scope: when set, every `$` path reads the state a property sees (any
   * segments, well-formed for the other positions or not) and this gives its type; the caller
   * reports the paths' problems.
   */
  readonly statePath?: (node: Path) => Type;
  /** For EXPR-DUNDER messages, e.g. "Step 's'" or "Function 'fn'". */
  readonly owner?: string;
}

interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

export interface ExprFix {
  readonly description: string;
  readonly edits: TextEdit[];
  /** As SpecFix.machineApplicable: false for a fix `check --fix` must not apply. */
  readonly machineApplicable?: false;
}

export interface ExprDiagnostic {
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly message: string;
  /** UTF-16 offsets inside the expression text; half-open. */
  readonly start: number;
  readonly end: number;
  readonly suggestion?: string;
  readonly fix?: ExprFix;
}

export interface ExprCheckResult {
  /** The AST (possibly partial, with Error holes, when there are syntax diagnostics). */
  readonly expr: Expr | null;
  /** The type of the whole expression (`any` when it does not parse). */
  readonly type: Type;
  readonly diagnostics: ExprDiagnostic[];
  /** The type of every sub-expression, for hover. */
  readonly types: ReadonlyMap<Expr, Type>;
}
