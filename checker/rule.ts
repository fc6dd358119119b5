// What every rule module declares (docs/language.md §9.5): its stable code, severity, conformance
// family, error type, a one-line title and the documentation `stratumc explain CODE` prints.
// Message templates are typed functions on the rule object itself (`message(...)`).
import type { ErrorType, Severity } from "./diagnostic";

export type Family =
  | "yaml"
  | "version"
  | "unsupported"
  | "unknown-key"
  | "schema"
  | "reference"
  | "duplicate"
  | "step-mode"
  | "gate"
  | "routing"
  | "iteration"
  | "workflow"
  | "cycle"
  | "recursion"
  | "contract"
  | "expr-syntax"
  | "expr-name"
  | "expr-type"
  /** Suppression comments (`# stratum-ignore[CODE]: reason`); not a conformance family. */
  | "suppression"
  /** Findings of `stratumc fuzz` (run-time exploration); not a conformance family. */
  | "fuzz";

export interface RuleInfo {
  readonly code: string;
  readonly severity: Severity;
  readonly family: Family;
  readonly errorType: ErrorType;
  /** One line, shown by `stratumc explain` and in SARIF rule metadata. */
  readonly title: string;
  /** Markdown-free prose: why the rule exists and how to fix the problem. */
  readonly doc: string;
  /** Optional short YAML snippets for `stratumc explain`. */
  readonly example?: { readonly bad: string; readonly good?: string };
}

/** Identity helper that keeps the literal type of a rule object (its `message` signature). */
export function defineRule<R extends RuleInfo>(rule: R): R {
  return rule;
}
