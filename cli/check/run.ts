// Checks every input: read, decode, checkSpec (a scenario test file, `*.stratum-test.yaml`, is
// checked as one). An input that cannot be read becomes a report with one IO-READ diagnostic and no
// text.
import { type CheckOptions, type CheckResult, SCENARIO_FILE } from "../../checker/index";
import type { CliHost } from "../command-context";
import { type FileReport, reportWithDiagnostics } from "../format/report";
import { ioReadDiagnostic } from "../rules";
import type { Input } from "./inputs";
import { checkScenarioText } from "./read-scenario";
import { checkRead, type ReadResult, readSpecFile, readSpecStdin } from "./read-spec";

/** One checked input: its report, and the checker's result (for `fuzz` and `check --deep`). */
export interface CheckedInput {
  readonly report: FileReport;
  /** Null when the input could not be read, or is a scenario test file. */
  readonly result: CheckResult | null;
}

export async function checkInputsWithResults(
  inputs: readonly Input[],
  host: CliHost,
  options: CheckOptions = {},
): Promise<CheckedInput[]> {
  const checked: CheckedInput[] = [];
  for (const input of inputs) {
    const read: ReadResult =
      input.kind === "stdin"
        ? await readSpecStdin(host)
        : input.kind === "file"
          ? readSpecFile(input.path)
          : { ok: false, reason: input.reason, line: 1, column: 1 };
    if (read.ok && read.text !== undefined && input.kind === "file" && SCENARIO_FILE.test(input.path)) {
      // A scenario test file given by name is checked as one (its spec, steps and results), not as a spec.
      const scenario = checkScenarioText(input.path, read.text);
      checked.push({
        report: reportWithDiagnostics(input.display, scenario.source.lines, scenario.diagnostics),
        result: null,
      });
    } else if (read.ok) {
      const result = checkRead(read, options);
      checked.push({ report: reportOf(input.display, result), result });
    } else checked.push({ report: unreadable(input.display, read), result: null });
  }
  return checked;
}

export function reportOf(file: string, r: CheckResult): FileReport {
  return {
    file,
    lines: r.source.lines,
    valid: r.valid,
    diagnostics: r.diagnostics,
    errors: r.errors,
    warnings: r.warnings,
  };
}

export function unreadable(file: string, read: Extract<ReadResult, { ok: false }>): FileReport {
  const d = ioReadDiagnostic(read.reason, read.line, read.column);
  return { file, lines: null, valid: false, diagnostics: [d], errors: [d], warnings: [] };
}
