// The rules the front end can report: the checker's catalogue plus IO-READ, which only a front end
// that reads files can produce. `explain` and the SARIF rule metadata list exactly these.

import type { Diagnostic } from "../checker/index";
import { CATALOGUE, defineRule, type RuleInfo } from "../checker/index";

export type CliRule = RuleInfo;

const IO_READ = defineRule({
  code: "IO-READ",
  severity: "error",
  family: "io",
  errorType: "ir_parse_error",
  title: "The input cannot be read",
  doc:
    "The file does not exist, cannot be read, is a directory, or is not valid UTF-8 text (a spec is " +
    "UTF-8, docs/reference/language.md §1.1; the message names the first bad byte). Nothing in it was checked and the " +
    "exit code is 2. Check the path and the file's permissions, or re-save the file as UTF-8.",
  example: {
    bad: "$ stratumc check plan.stratum.yaml   # saved as Latin-1: 'café' is the bytes 63 61 66 e9",
    good: "$ iconv -f latin1 -t utf-8 plan.stratum.yaml > plan.utf8 && mv plan.utf8 plan.stratum.yaml",
  },
  message: (reason: string) => `cannot read file: ${reason}`,
});

/** `<file>:<line>:<column>: error: cannot read file: <reason> [IO-READ]` as a diagnostic object. */
export function ioReadDiagnostic(reason: string, line = 1, column = 1): Diagnostic {
  return {
    success: false,
    error_type: IO_READ.errorType,
    path: "",
    message: IO_READ.message(reason),
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
