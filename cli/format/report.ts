// The outcome of checking one input, as every output format sees it.
import type { Diagnostic, LineMap } from "../../checker/index";

export interface FileReport {
  /** The name shown for the input: a path relative to the working directory, or `<stdin>`. */
  readonly file: string;
  /** The line table of the text that was checked (for code frames); null when it could not be read. */
  readonly lines: LineMap | null;
  readonly valid: boolean;
  /** In checkSpec order (sorted by position). */
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: readonly Diagnostic[];
  /** Warning- and info-severity diagnostics. */
  readonly warnings: readonly Diagnostic[];
}

export interface Totals {
  readonly errors: number;
  /** Warning-severity diagnostics only: what --max-warnings counts. */
  readonly warnings: number;
  /** Info-severity notes (e.g. a shorthand's canonical form): shown, never counted as warnings. */
  readonly notes: number;
  readonly files: number;
  /** Inputs that could not be read (IO-READ). */
  readonly unreadable: number;
}

export function totals(reports: readonly FileReport[]): Totals {
  let errors = 0;
  let warnings = 0;
  let notes = 0;
  let unreadable = 0;
  for (const r of reports) {
    errors += r.errors.length;
    for (const d of r.warnings) {
      if (d.severity === "info") notes++;
      else warnings++;
    }
    if (r.lines === null) unreadable++;
  }
  return { errors, warnings, notes, files: reports.length, unreadable };
}

/** The report of a readable input with these diagnostics (already in the order to print). */
export function reportWithDiagnostics(
  file: string,
  lines: LineMap,
  diagnostics: readonly Diagnostic[],
): FileReport {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const warnings = diagnostics.filter((d) => d.severity !== "error");
  return { file, lines, valid: errors.length === 0, diagnostics, errors, warnings };
}
