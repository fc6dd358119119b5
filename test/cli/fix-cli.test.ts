// `stratumc check --fix | --fix-dry-run | --quiet | --watch` end to end through the built bundle.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BUNDLE, ensureBundle, type RunOptions, stratumc } from "./run-cli";
import { BROKEN, CLEAN, WARNINGS } from "./spec-fixtures";

let dir = "";
const PLAIN = { FORCE_COLOR: undefined, NO_COLOR: "1" };

function check(args: readonly string[], options: RunOptions = {}) {
  return stratumc(["check", ...args], { cwd: dir, env: PLAIN, ...options });
}

/** BROKEN with three fixable mistakes: an unquoted version, a misspelled id and a misspelled key. */
const FIXABLE = BROKEN.replace('version: "0.2"', "version: 0.2").replace(
  'intent: "Then this"',
  'intnt: "Then this"',
);
const FIXED = BROKEN.replace("[buld]", "[build]");
/** A fixable typo next to an error no fix can repair (an unknown function). */
const UNFIXABLE = `${FIXABLE.replace('intnt: "Then this"', 'intnt: "Then this"\n      - id: c\n        function: nowhere')}`;

beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-fix-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("--fix", () => {
  beforeEach(() => {
    write("a.stratum.yaml", FIXABLE);
    write("b.stratum.yaml", UNFIXABLE);
  });

  it("rewrites a file whose every error it can fix, reports what remains, exits as check", () => {
    const path = join(dir, "a.stratum.yaml");
    chmodSync(path, 0o640);
    const r = check(["--fix", "a.stratum.yaml"]);
    expect(r).toEqual({
      status: 0,
      stdout: "0 error(s), 0 warning(s) in 1 file(s)\n",
      stderr: "a.stratum.yaml: 3 fix(es) applied\n",
    });
    expect(readFileSync(path, "utf8")).toBe(FIXED);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(check(["--fix", "a.stratum.yaml"])).toMatchObject({ status: 0, stderr: "" });
  });

  it("never touches a file with an error it cannot fix, and says so", () => {
    const before = readFileSync(join(dir, "b.stratum.yaml"));
    const r = check(["--fix", "a.stratum.yaml", "b.stratum.yaml", "--format", "json"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      "a.stratum.yaml: 3 fix(es) applied\n" +
        "b.stratum.yaml: not fixed: 1 error(s) would remain that --fix cannot fix; nothing written\n",
    );
    expect(readFileSync(join(dir, "b.stratum.yaml")).equals(before)).toBe(true);
    const files = JSON.parse(r.stdout) as { file: string; errors: { code: string }[] }[];
    // The report shows a.stratum.yaml as fixed and b.stratum.yaml as it is on disk.
    expect(files[0]).toEqual({ file: "a.stratum.yaml", valid: true, errors: [], warnings: [] });
    expect(files[1]).toEqual(JSON.parse(check(["b.stratum.yaml", "--format", "json"]).stdout)[0]);
    expect(files[1]?.errors.map((d) => d.code)).toContain("SPEC-STEP-FUNCTION-UNDEFINED");
  });

  it("keeps CRLF line endings and a byte order mark", () => {
    const crlf = `\ufeff${FIXABLE.replace(/\n/g, "\r\n")}`;
    const path = write("crlf.stratum.yaml", crlf);
    expect(check(["--fix", "crlf.stratum.yaml"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(`\ufeff${FIXED.replace(/\n/g, "\r\n")}`);
  });

  it("refuses standard input with a usage error, and --fix with --fix-dry-run", () => {
    expect(check(["--fix", "-"], { input: FIXABLE })).toMatchObject({
      status: 2,
      stdout: "",
      stderr: "stratumc: --fix cannot rewrite standard input (--fix-dry-run - prints the diff)\n",
    });
    const both = check(["--fix", "--fix-dry-run", "a.stratum.yaml"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("cannot be used with option '--fix-dry-run'");
    expect(readFileSync(join(dir, "a.stratum.yaml"), "utf8")).toBe(FIXABLE);
  });
});

describe("--fix-dry-run", () => {
  it("prints a unified diff and the report of the fixed text; the file stays byte for byte", () => {
    const path = write("d.stratum.yaml", FIXABLE);
    const before = readFileSync(path);
    const r = check(["--fix-dry-run", "d.stratum.yaml"]);
    expect(r).toEqual({
      status: 0,
      stdout: [
        "--- a/d.stratum.yaml",
        "+++ b/d.stratum.yaml",
        "@@ -1,4 +1,4 @@",
        "-version: 0.2",
        '+version: "0.2"',
        " flows:",
        "   main:",
        "     input: {}",
        "@@ -6,5 +6,5 @@",
        "       - id: build",
        '         intent: "Build it"',
        "       - id: b",
        "-        depends_on: [buld]",
        '-        intnt: "Then this"',
        "+        depends_on: [build]",
        '+        intent: "Then this"',
        "0 error(s), 0 warning(s) in 1 file(s)",
        "",
      ].join("\n"),
      stderr: "d.stratum.yaml: 3 fix(es) would be applied\n",
    });
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("works on standard input and prints nothing to change for a clean file", () => {
    const r = check(["--fix-dry-run", "-"], { input: FIXABLE });
    expect(r.stdout.startsWith("--- a/<stdin>\n+++ b/<stdin>\n@@ -1,4 +1,4 @@\n")).toBe(true);
    expect(check(["--fix-dry-run", "-"], { input: CLEAN })).toEqual({
      status: 0,
      stdout: "0 error(s), 0 warning(s) in 1 file(s)\n",
      stderr: "",
    });
    expect(check(["--fix-dry-run", "-", "--format", "json"], { input: CLEAN }).status).toBe(2);
  });

  it("exits 1 for a file it would not fix, without a diff", () => {
    const r = check(["--fix-dry-run", "-"], { input: UNFIXABLE });
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain("+++");
    expect(r.stderr).toContain("<stdin>: not fixed: 1 error(s) would remain that --fix cannot fix");
  });
});

describe("--quiet", () => {
  it("reports errors only; warnings still count for --max-warnings", () => {
    write("w.stratum.yaml", WARNINGS);
    write("e.stratum.yaml", BROKEN);
    const quiet = check(["--quiet", "w.stratum.yaml", "e.stratum.yaml"]);
    expect(quiet.status).toBe(1);
    expect(quiet.stdout).not.toContain("warning:");
    expect(quiet.stdout).toContain("e.stratum.yaml:9:22: error:");
    expect(quiet.stdout.endsWith("1 error(s), 0 warning(s) in 2 file(s)\n")).toBe(true);
    const json = JSON.parse(check(["--quiet", "w.stratum.yaml", "--format", "json"]).stdout);
    expect(json).toEqual([{ file: "w.stratum.yaml", valid: true, errors: [], warnings: [] }]);
    expect(check(["--quiet", "w.stratum.yaml"])).toMatchObject({ status: 0 });
    const max = check(["--quiet", "w.stratum.yaml", "--max-warnings", "0"]);
    expect([max.status, max.stderr]).toEqual([1, "stratumc: 2 warning(s), more than --max-warnings 0\n"]);
  });
});

describe("--watch", () => {
  it("checks, checks again when a watched spec changes, and stops on SIGINT", async () => {
    const path = write("watched.stratum.yaml", CLEAN);
    const child = spawn(process.execPath, [BUNDLE, "check", "--watch", "."], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => {
      stdout += b.toString();
    });
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString();
    });
    const until = async (what: () => boolean, label: string) => {
      const deadline = Date.now() + 15_000;
      while (!what()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}: ${stdout} / ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const watching = () => (stderr.match(/watching for changes/g) ?? []).length;
    await until(() => watching() === 1, "the first check");
    expect(stdout).not.toContain("watched.stratum.yaml:");
    // Not a terminal: no clear-screen sequence.
    expect(stdout).not.toContain("\x1b[");
    writeFileSync(path, BROKEN);
    await until(() => stdout.includes("watched.stratum.yaml:9:22: error:"), "the second check");
    await until(() => watching() >= 2, "the second check's end");
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    child.kill("SIGINT");
    // The exit code is that of the last check (errors).
    expect(await exited).toBe(1);
  }, 30_000);

  it("refuses to watch standard input or to combine with --fix", () => {
    expect(check(["--watch", "-"])).toMatchObject({
      status: 2,
      stderr: "stratumc: --watch cannot watch standard input\n",
    });
    expect(check(["--watch", "--fix", "."]).status).toBe(2);
  });
});
