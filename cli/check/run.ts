// Checks every input: read, decode, checkSpec. An input that cannot be read becomes a report with
// one IO-READ diagnostic and no text.
import { type CheckResult, checkSpec } from "../../checker/check-spec";
import type { CliHost } from "../host";
import { ioReadDiagnostic } from "../rules";
import type { Input } from "./inputs";
import { decodeSpec, type ReadResult, readSpecFile } from "./read-spec";
import type { FileReport } from "./report";

export async function checkInputs(inputs: readonly Input[], host: CliHost): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const input of inputs) {
    const read: ReadResult =
      input.kind === "stdin"
        ? decodeSpec(await host.readStdin())
        : input.kind === "file"
          ? readSpecFile(input.path)
          : { ok: false, reason: input.reason, line: 1, column: 1 };
    reports.push(read.ok ? reportOf(input.display, checkSpec(read.text)) : unreadable(input.display, read));
  }
  return reports;
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
