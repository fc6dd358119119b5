// `stratumc test`: every scenario test file found below the paths, checked (a file with errors is
// reported and not run), then each of its tests run through the interpreter.
import { type Diagnostic, type LineMap, SCENARIO_FILE } from "../../checker/index";
import { runScenarioFile, type TestOutcome } from "../../interpreter/index";
import { resolveInputs } from "../check/inputs";
import { checkScenarioText } from "../check/read-scenario";
import { readSpecFile } from "../check/read-spec";
import { UsageError } from "../exit-codes";
import { ioReadDiagnostic } from "../rules";

export interface TestedFile {
  /** As shown: relative to the working directory. */
  readonly file: string;
  /** Null when the file could not be read. */
  readonly lines: LineMap | null;
  /** The file's diagnostics: when there is an error, its tests did not run. */
  readonly diagnostics: readonly Diagnostic[];
  readonly outcomes: readonly TestOutcome[];
}

export interface TestRun {
  readonly files: readonly TestedFile[];
  readonly passed: number;
  readonly failed: number;
  /** Files with errors (their tests did not run) or that could not be read. */
  readonly broken: number;
  readonly unreadable: number;
}

export async function runTestFiles(paths: readonly string[], cwd: string): Promise<TestRun> {
  if (paths.includes("-"))
    throw new UsageError("test reads files: its spec is found relative to it, so - is not accepted");
  const inputs = resolveInputs(paths, cwd, SCENARIO_FILE);
  if (inputs.length === 0)
    throw new UsageError(`no scenario test files (*.stratum-test.yaml) below ${paths.join(" ") || "."}`);
  const files: TestedFile[] = [];
  for (const input of inputs) {
    if (input.kind !== "file") {
      const reason = input.kind === "unreadable" ? input.reason : "standard input";
      files.push({ file: input.display, lines: null, diagnostics: [ioReadDiagnostic(reason)], outcomes: [] });
      continue;
    }
    const read = readSpecFile(input.path);
    if (!read.ok || read.text === undefined) {
      const d = read.ok
        ? ioReadDiagnostic("over the size limit")
        : ioReadDiagnostic(read.reason, read.line, read.column);
      files.push({ file: input.display, lines: null, diagnostics: [d], outcomes: [] });
      continue;
    }
    const check = checkScenarioText(input.path, read.text);
    files.push({
      file: input.display,
      lines: check.source.lines,
      diagnostics: check.diagnostics,
      outcomes: await runScenarioFile(check),
    });
  }
  let passed = 0;
  let failed = 0;
  let broken = 0;
  let unreadable = 0;
  for (const f of files) {
    if (f.lines === null) unreadable++;
    if (f.diagnostics.some((d) => d.severity === "error")) broken++;
    for (const o of f.outcomes) {
      if (o.failure === null) passed++;
      else failed++;
    }
  }
  return { files, passed, failed, broken, unreadable };
}
