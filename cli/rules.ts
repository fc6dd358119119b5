// The rules the front end can report: the checker's catalogue plus IO-READ, which only a front end
// that reads files can produce. `explain` and the SARIF rule metadata list exactly these.
import { CATALOGUE } from "../checker/catalogue";
import type { Diagnostic } from "../checker/diagnostic";
import type { Family, RuleInfo } from "../checker/rule";

export interface CliRule extends Omit<RuleInfo, "family"> {
  readonly family: Family | "io";
}

export const IO_READ: CliRule = {
  code: "IO-READ",
  severity: "error",
  family: "io",
  errorType: "ir_parse_error",
  title: "The input cannot be read",
  doc:
    "The file does not exist, cannot be read, is a directory, or is not valid UTF-8 text (a spec is " +
    "UTF-8, docs/language.md §1.1; the message names the first bad byte). Nothing in it was checked and the " +
    "exit code is 2. Check the path and the file's permissions, or re-save the file as UTF-8.",
};

/** `<file>:<line>:<column>: error: cannot read file: <reason> [IO-READ]` as a diagnostic object. */
export function ioReadDiagnostic(reason: string, line = 1, column = 1): Diagnostic {
  return {
    success: false,
    error_type: IO_READ.errorType,
    path: "",
    message: `cannot read file: ${reason}`,
    code: IO_READ.code,
    severity: "error",
    line,
    column,
    end_line: line,
    end_column: column,
  };
}

/** Every rule, catalogue order, IO-READ last. */
export function cliRules(): readonly CliRule[] {
  return [...CATALOGUE.values(), IO_READ];
}
