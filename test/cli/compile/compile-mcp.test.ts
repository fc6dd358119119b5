// `stratum-mcp compile <dir> [--output FILE] [--flow NAME]` in process (docs/reference/runtime.md §21.1): the
// reference's word handling (first word = directory, options in any order, unknown words
// ignored), its messages and exit codes, and YAML that loads to the reference's document.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EXAMPLE_TASK, EXAMPLE_YAML, FIXTURE_ROOT, mcp, referenceYaml, TempDir } from "./harness";

const USAGE = "Usage: stratum-mcp compile <tasks_dir> [--output <file>] [--flow <name>]\n";

let t: TempDir;
beforeEach(() => {
  t = new TempDir({ "tasks/01-setup.md": EXAMPLE_TASK, "notes/readme.txt": "not a task\n" });
});
afterEach(() => t.dispose());

describe("stratum-mcp compile: success", () => {
  it("prints exactly the spec of docs/reference/runtime.md §19.4 for its example task, nothing appended", async () => {
    expect(await mcp(["compile", "tasks"], { cwd: t.path })).toEqual({
      code: 0,
      stdout: EXAMPLE_YAML,
      stderr: "",
    });
  });

  it("compiles the scenario's tasks to the reference's document (default flow name and --flow)", async () => {
    const plain = await mcp(["compile", "tasks"], { cwd: FIXTURE_ROOT });
    expect([plain.code, plain.stderr]).toEqual([0, ""]);
    expect(parse(plain.stdout)).toEqual(parse(referenceYaml("tasks")));
    const named = await mcp(["compile", "tasks", "--flow", "build"], { cwd: FIXTURE_ROOT });
    expect([named.code, named.stderr]).toEqual([0, ""]);
    expect(parse(named.stdout)).toEqual(parse(referenceYaml("build")));
  });

  it("takes options in any order, each with the following word; unknown words are ignored", async () => {
    const expected = (await mcp(["compile", "tasks", "--flow", "build"], { cwd: t.path })).stdout;
    expect(expected).toContain("\nflows:\n  build:\n");
    for (const words of [
      ["--verbose", "--flow", "build"],
      ["extra", "--flow", "build", "more"],
      ["--flow", "first", "--flow", "build"], // the last one wins
      ["--flow", "build", "--output"], // an option without a following word is ignored
      ["--output", "", "--flow", "build"], // an empty file name means standard output
    ]) {
      expect(await mcp(["compile", "tasks", ...words], { cwd: t.path })).toEqual({
        code: 0,
        stdout: expected,
        stderr: "",
      });
    }
  });

  it("an option's word is taken whatever it looks like (--flow --output)", async () => {
    const r = await mcp(["compile", "tasks", "--flow", "--output", "spec.yaml"], { cwd: t.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("\nflows:\n  '--output':\n");
    expect(existsSync(join(t.path, "spec.yaml"))).toBe(false);
  });

  it("--output writes the file (relative to the working directory) and prints `Written to <file>`", async () => {
    const r = await mcp(["compile", "tasks", "--output", "out/spec.stratum.yaml"], { cwd: t.path });
    expect(r).toEqual({ code: 0, stdout: "Written to out/spec.stratum.yaml\n", stderr: "" });
    expect(t.read("out/spec.stratum.yaml")).toBe(EXAMPLE_YAML);
    // An existing file is replaced.
    const again = await mcp(["compile", "tasks", "--flow", "other", "--output", "out/spec.stratum.yaml"], {
      cwd: t.path,
    });
    expect(again.stdout).toBe("Written to out/spec.stratum.yaml\n");
    expect(t.read("out/spec.stratum.yaml")).toBe(EXAMPLE_YAML.replace("\n  tasks:\n", "\n  other:\n"));
  });

  it("warns on standard error, still exit 0, when the compiled spec will not validate", async () => {
    t.write("quoted/01-odd.md", '# Odd\n## Acceptance Criteria\n- [ ] file a"b.txt exists\n');
    const r = await mcp(["compile", "quoted"], { cwd: t.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('    - file_exists("a"b.txt")\n');
    const problem = `WARNING: compiled spec: functions.t01_odd.ensure.0: Cannot compile ensure expression 'file_exists("a"b.txt")'`;
    expect(r.stderr).toBe(`${problem}: unexpected name 'b'\n${problem}: unterminated string literal\n`);
  });
});

describe("stratum-mcp compile: failures", () => {
  it("no directory (or an empty one) prints the usage line, exit 1", async () => {
    for (const words of [[], [""], ["", "--flow", "x"]]) {
      expect(await mcp(["compile", ...words], { cwd: t.path })).toEqual({
        code: 1,
        stdout: "",
        stderr: USAGE,
      });
    }
  });

  it("a path that is not a directory: ERROR: '<dir>' is not a directory, exit 1", async () => {
    for (const dir of ["missing", "notes/readme.txt", "tasks/01-setup.md"]) {
      expect(await mcp(["compile", dir], { cwd: t.path })).toEqual({
        code: 1,
        stdout: "",
        stderr: `ERROR: '${dir}' is not a directory\n`,
      });
    }
  });

  it("the first word is the directory even when it looks like an option (as the reference)", async () => {
    expect(await mcp(["compile", "--output", "spec.yaml", "tasks"], { cwd: t.path })).toEqual({
      code: 1,
      stdout: "",
      stderr: "ERROR: '--output' is not a directory\n",
    });
    expect(existsSync(join(t.path, "spec.yaml"))).toBe(false);
  });

  it("compile errors print ERROR: <message>, exit 1, and write nothing", async () => {
    t.write("twins/a-b.md", "# A\n");
    t.write("twins/a_b.md", "# B\n");
    t.write("broken/01-x.md", "# X\n");
    t.write("broken/02-bad.md/inner.txt", "a directory named *.md\n");
    const cases: [string, string][] = [
      ["notes/", "No task files (*.md) found in notes"],
      [
        "twins",
        "Step ID collision: 'a_b' from 'a_b.md' conflicts with 'a-b.md'. Rename one of the files to produce a distinct step ID.",
      ],
      ["broken", "Cannot read task file '02-bad.md': is a directory"],
    ];
    for (const [dir, message] of cases) {
      expect(await mcp(["compile", dir, "--output", "spec.yaml"], { cwd: t.path })).toEqual({
        code: 1,
        stdout: "",
        stderr: `ERROR: ${message}\n`,
      });
    }
    expect(existsSync(join(t.path, "spec.yaml"))).toBe(false);
  });

  it("a file that cannot be written: ERROR: cannot write '<file>': <reason>, exit 1", async () => {
    expect(await mcp(["compile", "tasks", "--output", "notes"], { cwd: t.path })).toEqual({
      code: 1,
      stdout: "",
      stderr: "ERROR: cannot write 'notes': is a directory\n",
    });
    expect(
      await mcp(["compile", "tasks", "--output", "notes/readme.txt/spec.yaml"], { cwd: t.path }),
    ).toEqual({
      code: 1,
      stdout: "",
      stderr: "ERROR: cannot write 'notes/readme.txt/spec.yaml': not a directory\n",
    });
  });
});
