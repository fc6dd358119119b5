// `stratumc test --format junit`: JUnit XML, the report CI systems read (Jenkins, GitLab, GitHub
// actions that publish test results). One <testsuite> per test file, one <testcase> per test; a
// failing test has a <failure> whose message is the first differing fact and whose text adds its
// place and the expected and actual values; a file with errors is one <testcase> with an <error>
// per diagnostic, since none of its tests ran. Times are 0: runs use a fixed clock.
import type { TestedFile, TestRun } from "./run";

/** Text and attribute values: the five XML escapes, and characters XML 1.0 forbids dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function suite(f: TestedFile): string {
  const errors = f.diagnostics.filter((d) => d.severity === "error");
  const cases: string[] = [];
  if (errors.length > 0) {
    const body = errors
      .map(
        (d) =>
          `      <error message="${xml(d.message)}" type="${xml(d.code)}">${xml(`${f.file}:${d.line}:${d.column}: ${d.message} [${d.code}]`)}</error>`,
      )
      .join("\n");
    cases.push(
      `    <testcase name="(the test file)" classname="${xml(f.file)}" time="0">\n${body}\n    </testcase>`,
    );
  }
  let failures = 0;
  for (const o of f.outcomes) {
    const open = `    <testcase name="${xml(o.name)}" classname="${xml(f.file)}" time="0"`;
    if (o.failure === null) {
      cases.push(`${open}/>`);
      continue;
    }
    failures++;
    const at = f.lines?.location(o.failure.range.start, o.failure.range.end);
    const detail = [
      `${f.file}:${at?.line ?? 1}:${at?.column ?? 1}: ${o.failure.message}`,
      ...(o.failure.expected === undefined ? [] : [`expected: ${o.failure.expected}`]),
      ...(o.failure.actual === undefined ? [] : [`actual: ${o.failure.actual}`]),
    ].join("\n");
    cases.push(
      `${open}>\n      <failure message="${xml(o.failure.message)}" type="scenario">${xml(detail)}</failure>\n    </testcase>`,
    );
  }
  const tests = f.outcomes.length + (errors.length > 0 ? 1 : 0);
  const head = `  <testsuite name="${xml(f.file)}" tests="${tests}" failures="${failures}" errors="${errors.length > 0 ? 1 : 0}" skipped="0" time="0">`;
  return cases.length === 0 ? `${head.slice(0, -1)}/>` : `${head}\n${cases.join("\n")}\n  </testsuite>`;
}

export function formatTestJunit(run: TestRun): string {
  const suites = run.files.map(suite);
  const errors = run.files.filter((f) => f.diagnostics.some((d) => d.severity === "error")).length;
  const tests = run.passed + run.failed + errors;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="stratumc test" tests="${tests}" failures="${run.failed}" errors="${errors}" time="0">`,
    ...suites,
    `</testsuites>`,
    "",
  ].join("\n");
}
