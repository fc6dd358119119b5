// `stratumc check` end to end through the built bundle: inputs (files, directories, globs, stdin),
// exit codes, --max-warnings, colour, suppressions, unreadable and non-UTF-8 input.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, type RunOptions, stratumc } from "./run-cli";
import { BROKEN, CLEAN, WARNINGS } from "./spec-fixtures";

let dir = "";
const PLAIN = { FORCE_COLOR: undefined, NO_COLOR: "1" };

function check(args: readonly string[], options: RunOptions = {}) {
  return stratumc(["check", ...args], { cwd: dir, env: PLAIN, ...options });
}

beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-check-"));
  const files: Record<string, string> = {
    "clean.stratum.yaml": CLEAN,
    "warn.stratum.yaml": WARNINGS,
    "specs/broken.stratum.yaml": BROKEN,
    "specs/nested/clean.stratum.yaml": CLEAN,
    "node_modules/x/broken.stratum.yaml": BROKEN,
    ".cache/broken.stratum.yaml": BROKEN,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("exit codes and summary", () => {
  it("exits 0 and prints only the summary for a clean file", () => {
    const r = check(["clean.stratum.yaml"]);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, "0 error(s), 0 warning(s) in 1 file(s)\n", ""]);
  });

  it("exits 0 with warnings, 1 with errors", () => {
    const warn = check(["warn.stratum.yaml"]);
    expect(warn.status).toBe(0);
    expect(warn.stdout).toContain("warn.stratum.yaml:9:5: warning: ");
    expect(warn.stdout.endsWith("0 error(s), 2 warning(s) in 1 file(s)\n")).toBe(true);
    const broken = check(["specs/broken.stratum.yaml"]);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain(
      "specs/broken.stratum.yaml:9:22: error: Step 'b' depends_on unknown step 'buld' [SPEC-DEPENDS-ON-UNKNOWN]\n" +
        " 9 |         depends_on: [buld]\n" +
        "   |                      ^^^^\n" +
        "  = help: Did you mean 'build'?\n",
    );
  });

  it("fails with more warnings than --max-warnings, with a note on stderr", () => {
    expect(check(["warn.stratum.yaml", "--max-warnings", "2"]).status).toBe(0);
    const r = check(["warn.stratum.yaml", "--max-warnings", "1"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("stratumc: 2 warning(s), more than --max-warnings 1\n");
    const json = check(["warn.stratum.yaml", "--max-warnings=0", "--format", "json"]);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toHaveLength(1);
  });

  it("shows info notes in the summary without counting them as warnings", () => {
    // The reference's `items: <type>` shorthand: accepted, with an info note on the canonical form.
    const spec = CLEAN.replace("{type: string}", "{type: array, items: string}");
    const r = check(["-", "--max-warnings", "0"], { input: spec });
    expect(r.stdout).toContain("info: ");
    expect(r.stdout).toContain("[SPEC-CONTRACT-SHORTHAND]");
    expect([r.status, r.stdout.endsWith("0 error(s), 0 warning(s), 1 note(s) in 1 file(s)\n")]).toEqual([
      0,
      true,
    ]);
  });

  it("rejects a bad --max-warnings or --format with exit 2", () => {
    expect(check(["clean.stratum.yaml", "--max-warnings", "-1"])).toMatchObject({
      status: 2,
      stderr: "stratumc: --max-warnings: expected a whole number >= 0, got '-1'\n",
    });
    const r = check(["clean.stratum.yaml", "--format", "xml"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("argument 'xml' is invalid. Allowed choices are pretty, json, sarif, github.");
  });

  it("reports a missing file as IO-READ and exits 2, even when other files have errors", () => {
    const r = check(["missing.stratum.yaml", "specs/broken.stratum.yaml"]);
    expect(r.status).toBe(2);
    expect(
      r.stdout.startsWith("missing.stratum.yaml:1:1: error: cannot read file: file not found [IO-READ]\n\n"),
    ).toBe(true);
    expect(r.stdout.endsWith("2 error(s), 0 warning(s) in 2 file(s)\n")).toBe(true);
  });

  it("refuses bytes that are not UTF-8 (IO-READ at the first bad byte, exit 2)", () => {
    writeFileSync(
      join(dir, "latin1.yaml"),
      Buffer.from([...Buffer.from('version: "0.2"\nx: caf'), 0xe9, 0x0a]),
    );
    const r = check(["latin1.yaml", "--format", "github"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe(
      "::error file=latin1.yaml,line=2,col=7,endLine=2,endColumn=7,title=IO-READ::cannot read file: not valid UTF-8 (byte 0xe9 at line 2, column 7)\n",
    );
  });

  it("reports a directory that holds no spec as 0 files, exit 0", () => {
    mkdirSync(join(dir, "empty"), { recursive: true });
    expect(check(["empty"])).toMatchObject({ status: 0, stdout: "0 error(s), 0 warning(s) in 0 file(s)\n" });
  });
});

describe("inputs", () => {
  it("checks the current directory by default, skipping node_modules and dot-directories, files sorted", () => {
    const r = check([], { env: PLAIN });
    const files = JSON.parse(check(["--format", "json"]).stdout).map((f: { file: string }) => f.file);
    expect(files).toEqual([
      "clean.stratum.yaml",
      "specs/broken.stratum.yaml",
      "specs/nested/clean.stratum.yaml",
      "warn.stratum.yaml",
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout.endsWith("in 4 file(s)\n")).toBe(true);
  });

  it("expands globs and rejects a glob that matches nothing", () => {
    const files = JSON.parse(check(["specs/**/*.stratum.yaml", "--format", "json"]).stdout).map(
      (f: { file: string }) => f.file,
    );
    expect(files).toEqual(["specs/broken.stratum.yaml", "specs/nested/clean.stratum.yaml"]);
    expect(check(["nowhere/**/*.yaml"])).toMatchObject({
      status: 2,
      stdout: "",
      stderr: "stratumc: no files match 'nowhere/**/*.yaml'\n",
    });
  });

  it("reads - from standard input and shows it as <stdin>", () => {
    const r = check(["-"], { input: BROKEN });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("<stdin>:9:22: error: Step 'b' depends_on unknown step 'buld'");
    const clean = check(["-", "clean.stratum.yaml", "--format", "json"], { input: CLEAN });
    expect(JSON.parse(clean.stdout)).toEqual([
      { file: "<stdin>", valid: true, errors: [], warnings: [] },
      { file: "clean.stratum.yaml", valid: true, errors: [], warnings: [] },
    ]);
  });

  it("is deterministic: the same input gives the same output, whatever the argument order", () => {
    const a = check(["warn.stratum.yaml", "specs", "clean.stratum.yaml"]);
    const b = check(["clean.stratum.yaml", "specs", "warn.stratum.yaml", "specs/broken.stratum.yaml"]);
    expect(a).toEqual(b);
  });
});

describe("colour", () => {
  it("is off when the output is not a terminal, on with FORCE_COLOR, off again with FORCE_COLOR=0", () => {
    expect(
      check(["specs/broken.stratum.yaml"], { env: { FORCE_COLOR: undefined, NO_COLOR: undefined } }).stdout,
    ).not.toContain("\x1b[");
    const forced = check(["specs/broken.stratum.yaml"], { env: { FORCE_COLOR: "1", NO_COLOR: undefined } });
    expect(forced.stdout).toContain("\x1b[1;31merror\x1b[0m");
    expect(check(["specs/broken.stratum.yaml"], { env: { FORCE_COLOR: "0" } }).stdout).not.toContain("\x1b[");
    // Machine formats never have colour.
    expect(
      check(["specs/broken.stratum.yaml", "--format", "json"], { env: { FORCE_COLOR: "1" } }).stdout,
    ).not.toContain("\x1b[");
  });
});

describe("suppressions", () => {
  it("make a spec valid when every error is suppressed with a reason (same line and line above)", () => {
    const text = BROKEN.replace(
      "        depends_on: [buld]",
      "        # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: build is renamed in the next release\n        depends_on: [buld]",
    );
    const r = check(["-", "--format", "json"], { input: text });
    expect([r.status, JSON.parse(r.stdout)[0].valid]).toEqual([0, true]);
    const sameLine = BROKEN.replace("[buld]", "[buld]  # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: known");
    expect(check(["-"], { input: sameLine }).status).toBe(0);
  });

  it("are not fooled by the marker inside a quoted or block scalar", () => {
    const quoted = BROKEN.replace(
      "        depends_on: [buld]",
      '        intent: "see # stratum-ignore[SPEC-DEPENDS-ON-UNKNOWN]: x"\n        depends_on: [buld]',
    );
    const r = check(["-", "--format", "json"], { input: quoted });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)[0].errors.map((d: { code: string }) => d.code)).toEqual([
      "SPEC-DEPENDS-ON-UNKNOWN",
    ]);
  });

  it("report unused and malformed suppressions", () => {
    const text = CLEAN.replace(
      'version: "0.2"',
      'version: "0.2" # stratum-ignore[SPEC-STEP-UNREACHABLE]: none here',
    );
    const unused = check(["-", "--format", "json"], { input: text });
    expect(unused.status).toBe(0);
    expect(JSON.parse(unused.stdout)[0].warnings).toEqual([
      {
        success: false,
        error_type: "ir_semantic_error",
        path: "",
        message: "Unused suppression: no 'SPEC-STEP-UNREACHABLE' diagnostic starts on line 1",
        code: "SUPPRESS-UNUSED",
        severity: "warning",
        line: 1,
        column: 33,
        end_line: 1,
        end_column: 54,
        fix: {
          description: "Remove the unused suppression comment",
          edits: [{ line: 1, column: 15, end_line: 1, end_column: 66, new_text: "" }],
        },
        help_uri: "https://github.com/stratumc/stratumc/blob/main/docs/reference/rules.md#suppress-unused",
      },
    ]);
    const malformed = check(["-"], { input: `${CLEAN}# stratum-ignore[SPEC-STEP-UNREACHABLE]\n` });
    expect(malformed.status).toBe(1);
    expect(malformed.stdout).toContain("error: Malformed suppression comment: a reason is required");
  });
});
