// `stratumc test` end to end through the built CLI: the examples' own scenario test files pass;
// failing tests and broken test files fail with their place in the test file, in every format;
// the JUnit report is read by a real consumer of JUnit XML (Debian's python3-junitparser).
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO, stratumc } from "../run-cli";

let dir: string;

const FAILING = `spec: review.stratum.yaml
flow: review_loop
tests:
  merged:
    input: {task: "x"}
    script:
      - {step: write, result: {branch: feature/x, diff_summary: "d", files: [a.ts]}}
      - {step: review, result: {verdict: approve, comments: []}}
      - {gate: approve, outcome: approve}
      - {step: merge, result: {merged: true, commit: "abcdef12"}}
      - {step: announce, result: {posted: true}}
    expect: {status: complete, output: {posted: true}}
  wrong step:
    input: {task: "x"}
    script:
      - {step: write, result: {branch: feature/x, diff_summary: "d", files: [a.ts]}}
      - {gate: approve, outcome: approve}
  wrong output:
    input: {task: "x"}
    script:
      - {step: write, result: {branch: feature/x, diff_summary: "d", files: [a.ts]}}
      - {step: review, result: {verdict: approve, comments: []}}
      - {gate: approve, outcome: approve}
      - {step: merge, result: {merged: true, commit: "abcdef12"}}
      - {step: announce, result: {posted: true, where: "#team"}}
    expect:
      output: {posted: true, where: "#general & <all>"}
`;

const BROKEN = `spec: review.stratum.yaml
flow: review_loop
tests:
  typo:
    script:
      - {step: wrte, result: {}}
`;

beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-test-cli-"));
  cpSync(join(REPO, "examples/code-review-gate.stratum.yaml"), join(dir, "review.stratum.yaml"));
  writeFileSync(join(dir, "failing.stratum-test.yaml"), FAILING);
  writeFileSync(join(dir, "broken.stratum-test.yaml"), BROKEN);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("stratumc test on the examples", () => {
  it("runs every example test file and passes (exit 0)", () => {
    const files = readdirSync(join(REPO, "examples")).filter((f) => f.endsWith(".stratum-test.yaml"));
    expect(files.length).toBeGreaterThanOrEqual(4);
    const r = stratumc(["test", "examples"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    for (const f of files) expect(r.stdout).toContain(`examples/${f}\n`);
    expect(r.stdout).not.toContain("✗");
    expect(r.stdout).toMatch(new RegExp(`^\\d+ passed, 0 failed \\(${files.length} file\\(s\\)\\)$`, "m"));
  });

  it("checks clean with stratumc check when named", () => {
    const r = stratumc([
      "check",
      "examples/code-review-gate.stratum-test.yaml",
      "examples/sub-flows.stratum-test.yaml",
    ]);
    expect(r.stdout).toBe("0 error(s), 0 warning(s) in 2 file(s)\n");
    expect(r.status).toBe(0);
  });
});

describe("failing tests", () => {
  it("pretty: each test's verdict, the first differing fact at its line:column, exit 1", () => {
    const r = stratumc(["test", "failing.stratum-test.yaml"], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("  ✓ merged\n");
    expect(r.stdout).toContain(
      "failing.stratum-test.yaml:17:9: the script answers gate 'approve', but the interpreter dispatched step 'review'",
    );
    expect(r.stdout).toContain(
      `failing.stratum-test.yaml:27:37: expect.output.where: expected '#general & <all>', got '#team'`,
    );
    expect(r.stdout).toContain("1 passed, 2 failed (1 file(s))\n");
  });

  it("a broken test file is reported with its diagnostics and not run", () => {
    const r = stratumc(["test", "."], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "broken.stratum-test.yaml:6:16: error: the flow has no step 'wrte'; did you mean 'write'? [TEST-UNKNOWN-STEP]",
    );
    expect(r.stdout).toContain("1 passed, 2 failed, 1 file(s) with errors not run (2 file(s))\n");
    const check = stratumc(["check", "broken.stratum-test.yaml"], { cwd: dir });
    expect(check.status).toBe(1);
    expect(check.stdout).toContain("[TEST-UNKNOWN-STEP]");
  });

  it("json: verdicts, statuses, step statuses and located failures", () => {
    const r = stratumc(["test", "--format", "json", "failing.stratum-test.yaml"], { cwd: dir });
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.passed).toBe(1);
    expect(doc.failed).toBe(2);
    const [merged, wrongStep] = doc.files[0].tests;
    expect(merged).toMatchObject({ name: "merged", passed: true, status: "complete" });
    expect(merged.steps).toMatchObject({ write: "done", security: "skipped", merge: "done" });
    expect(wrongStep.failure).toMatchObject({
      line: 17,
      column: 9,
      actual: "the interpreter dispatched step 'review'",
    });
    expect(wrongStep.status).toBe("waiting");
  });

  it("junit: a real consumer of JUnit XML reads every suite, case and failure", () => {
    const r = stratumc(["test", "--format", "junit", "."], { cwd: dir });
    expect(r.status).toBe(1);
    const xmlPath = join(dir, "report.xml");
    writeFileSync(xmlPath, r.stdout);
    const script = [
      "import json, sys",
      "from junitparser import JUnitXml, Failure, Error",
      "xml = JUnitXml.fromfile(sys.argv[1])",
      "out = []",
      "for suite in xml:",
      "    for case in suite:",
      "        kinds = [type(r).__name__ for r in case.result]",
      "        msgs = [r.message for r in case.result]",
      "        out.append([suite.name, case.name, kinds, msgs])",
      "print(json.dumps({'tests': xml.tests, 'failures': xml.failures, 'errors': xml.errors, 'cases': out}))",
    ].join("\n");
    const py = spawnSync("/usr/bin/python3", ["-c", script, xmlPath], { encoding: "utf8" });
    expect(py.stderr).toBe("");
    const read = JSON.parse(py.stdout);
    expect(read).toMatchObject({ tests: 4, failures: 2, errors: 1 });
    expect(read.cases).toEqual([
      [
        "broken.stratum-test.yaml",
        "(the test file)",
        ["Error"],
        ["the flow has no step 'wrte'; did you mean 'write'?"],
      ],
      ["failing.stratum-test.yaml", "merged", [], []],
      [
        "failing.stratum-test.yaml",
        "wrong step",
        ["Failure"],
        ["the script answers gate 'approve', but the interpreter dispatched step 'review'"],
      ],
      [
        "failing.stratum-test.yaml",
        "wrong output",
        ["Failure"],
        ["expect.output.where: expected '#general & <all>', got '#team'"],
      ],
    ]);
  });
});

describe("usage", () => {
  it("no test file below the paths is a usage error (exit 2)", () => {
    const r = stratumc(["test", "examples/broken"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no scenario test files");
  });

  it("standard input is refused (the spec is found relative to the test file)", () => {
    const r = stratumc(["test", "-"]);
    expect(r.status).toBe(2);
  });

  it("an unknown format is a usage error", () => {
    expect(stratumc(["test", "--format", "sarif", "examples"]).status).toBe(2);
  });
});
