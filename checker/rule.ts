// The one shape of a diagnostic code (docs/reference/language.md §9.5): every code is declared once, through
// `defineRule`, with its stable code, severity, conformance family, error type, a one-line title,
// the documentation, an example, what its automatic fix does (if it has one) and its message
// template(s), typed functions on the rule object itself (`message(...)`). The catalogue,
// `stratumc explain`, docs/reference/rules.md, SARIF rule metadata and the LSP's code descriptions read these
// declarations; test/checker/rule-fixtures/ holds each code's fixture specs.
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
  | "fuzz"
  /** A file a front end could not read (IO-READ, declared in cli/rules.ts); not a conformance family. */
  | "io"
  /** A stratumc-only feature (SPEC-NOT-PORTABLE, `check --portable`); not a conformance family. */
  | "portability"
  /** Scenario test files (`*.stratum-test.yaml`, `stratumc test`); not a conformance family. */
  | "scenario";

export interface RuleInfo {
  readonly code: string;
  readonly severity: Severity;
  readonly family: Family;
  readonly errorType: ErrorType;
  /** One line, shown by `stratumc explain` and in SARIF rule metadata. */
  readonly title: string;
  /** Markdown-free prose: why the rule exists and how to fix the problem. */
  readonly doc: string;
  /** Short YAML snippets for `stratumc explain` and docs/reference/rules.md: reported, and fixed. */
  readonly example?: { readonly bad: string; readonly good?: string };
  /** What the automatic fix does (the editor's quick fix, `check --fix`); absent when there is none. */
  readonly fix?: string;
  /** The message template (more variants may sit beside it on the rule object). */
  readonly message: (...args: never[]) => string;
}

/** Identity helper that keeps the literal type of a rule object (its `message` signature). */
export function defineRule<R extends RuleInfo>(rule: R): R {
  return rule;
}
