// `stratumc test --format json`: one object; per file its diagnostics (the file was not run when one
// is an error) and per test its verdict, how the run ended, the root flow's step statuses and, for
// a failing test, the first differing fact with its place in the test file.
import type { TestFailure } from "../../interpreter/index";
import type { TestedFile, TestRun } from "./run";

function failureJson(f: TestedFile, failure: TestFailure): Record<string, unknown> {
  const at = f.lines?.location(failure.range.start, failure.range.end);
  return {
    message: failure.message,
    line: at?.line ?? 1,
    column: at?.column ?? 1,
    end_line: at?.endLine ?? 1,
    end_column: at?.endColumn ?? 1,
    ...(failure.expected === undefined ? {} : { expected: failure.expected }),
    ...(failure.actual === undefined ? {} : { actual: failure.actual }),
  };
}

export function formatTestJson(run: TestRun): string {
  const doc = {
    passed: run.passed,
    failed: run.failed,
    files_with_errors: run.broken,
    files: run.files.map((f) => ({
      file: f.file,
      diagnostics: f.diagnostics,
      tests: f.outcomes.map((o) => ({
        name: o.name,
        passed: o.failure === null,
        status: o.status,
        steps: Object.fromEntries(o.steps),
        calls: o.calls,
        ...(o.failure === null ? {} : { failure: failureJson(f, o.failure) }),
      })),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
