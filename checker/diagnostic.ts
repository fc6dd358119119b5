// Diagnostics (docs/reference/language.md §9.1). Rules report `SpecDiagnostic`s with UTF-16 source ranges; the
// pipeline turns them into the public `Diagnostic` objects (1-based lines, code-point columns),
// sorted and deduplicated. CLI, LSP and MCP all show the public form.
import type { SourceRange } from "./base/source-range";

export type Severity = "error" | "warning" | "info";
export type ErrorType = "ir_parse_error" | "ir_validation_error" | "ir_semantic_error";

export interface SourceEdit {
  readonly range: SourceRange;
  readonly newText: string;
}

export interface SpecFix {
  readonly description: string;
  /** Non-overlapping, in document order. */
  readonly edits: readonly SourceEdit[];
  /**
   * False when the fix is one plausible answer among others (the editor offers it, `check --fix`
   * does not apply it). Absent means machine-applicable: certainly what the author meant, so
   * `stratumc check --fix` applies it and the language server marks it preferred.
   */
  readonly machineApplicable?: false;
}

export interface SpecRelated {
  readonly message: string;
  readonly path: string;
  readonly range: SourceRange;
}

/** A diagnostic as rules report it (source offsets). */
export interface SpecDiagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly errorType: ErrorType;
  readonly message: string;
  /** Dotted path in the reference's conventions (docs/reference/language.md §9.1); "" for YAML-family diagnostics. */
  readonly path: string;
  readonly range: SourceRange;
  readonly suggestion?: string;
  readonly related?: readonly SpecRelated[];
  readonly fix?: SpecFix;
}

export interface LocatedRange {
  readonly line: number;
  readonly column: number;
  readonly end_line: number;
  readonly end_column: number;
}

export interface Related extends LocatedRange {
  readonly message: string;
  readonly path: string;
}

export interface Fix {
  readonly description: string;
  readonly edits: readonly (LocatedRange & { readonly new_text: string })[];
  /** Present (false) only for a fix `check --fix` does not apply (see SpecFix.machineApplicable). */
  readonly machine_applicable?: false;
}

/** The public diagnostic object of docs/reference/language.md §9.1 (key names as in the reference's JSON). */
export interface Diagnostic extends LocatedRange {
  readonly success: false;
  readonly error_type: ErrorType;
  readonly path: string;
  readonly message: string;
  readonly suggestion?: string;
  readonly code: string;
  readonly severity: Severity;
  readonly related?: readonly Related[];
  readonly fix?: Fix;
}
