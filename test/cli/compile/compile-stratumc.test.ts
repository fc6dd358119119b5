// `stratumc compile <dir> [--output FILE] [--flow NAME]` in process (docs/reference/runtime.md §21.2): the same
// outputs and exit codes as `stratum-mcp compile`, with commander's argument handling (usage
// errors exit 2), and YAML that `stratumc check -` and `stratumc validate -` accept.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli, EXAMPLE_TASK, EXAMPLE_YAML, FIXTURE_ROOT, mcp, TempDir } from "./harness";

let t: TempDir;
beforeEach(() => {
  t = new TempDir({ "tasks/01-setup.md": EXAMPLE_TASK, "empty/.keep": "" });
});
afterEach(() => t.dispose());

describe("stratumc compile", () => {
  it("prints the same YAML as stratum-mcp compile, nothing appended", async () => {
    expect(await cli(["compile", "tasks"], { cwd: t.path })).toEqual({
      code: 0,
      stdout: EXAMPLE_YAML,
      stderr: "",
    });
    for (const flow of [[], ["--flow", "build"]]) {
      const ours = await cli(["compile", "tasks", ...flow], { cwd: FIXTURE_ROOT });
      expect(ours).toEqual(await mcp(["compile", "tasks", ...flow], { cwd: FIXTURE_ROOT }));
      expect(ours.code).toBe(0);
    }
  });

  it("takes the options before or after the directory, and --opt=value", async () => {
    const expected = { code: 0, stdout: EXAMPLE_YAML.replace("\n  tasks:\n", "\n  build:\n"), stderr: "" };
    expect(await cli(["compile", "--flow", "build", "tasks"], { cwd: t.path })).toEqual(expected);
    expect(await cli(["compile", "tasks", "--flow=build"], { cwd: t.path })).toEqual(expected);
    expect(await cli(["compile", "--output=spec.yaml", "tasks", "--flow", "build"], { cwd: t.path })).toEqual(
      {
        code: 0,
        stdout: "Written to spec.yaml\n",
        stderr: "",
      },
    );
    expect(t.read("spec.yaml")).toBe(expected.stdout);
  });

  it("prints the same error lines with exit 1", async () => {
    expect(await cli(["compile", "nope", "--output", "spec.yaml"], { cwd: t.path })).toEqual({
      code: 1,
      stdout: "",
      stderr: "ERROR: 'nope' is not a directory\n",
    });
    expect(await cli(["compile", "./empty/"], { cwd: t.path })).toEqual({
      code: 1,
      stdout: "",
      stderr: "ERROR: No task files (*.md) found in empty\n",
    });
    expect(await cli(["compile", "tasks", "--output", "empty"], { cwd: t.path })).toEqual({
      code: 1,
      stdout: "",
      stderr: "ERROR: cannot write 'empty': is a directory\n",
    });
  });

  it("a missing directory or an unknown option is a usage error, exit 2, as in every stratumc command", async () => {
    expect(await cli(["compile"], { cwd: t.path })).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: missing required argument 'dir'\n",
    });
    expect(await cli(["compile", "tasks", "--verbose"], { cwd: t.path })).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: unknown option '--verbose'\n",
    });
    expect(await cli(["compile", "tasks", "--flow"], { cwd: t.path })).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: option '--flow <name>' argument missing\n",
    });
  });

  it("compiles specs that `stratumc check -` and `stratumc validate -` accept", async () => {
    for (const flow of ["tasks", "build"]) {
      const yaml = (await cli(["compile", "tasks", "--flow", flow], { cwd: FIXTURE_ROOT })).stdout;
      expect(await cli(["check", "-"], { cwd: t.path, stdin: yaml })).toEqual({
        code: 0,
        stdout: "0 error(s), 0 warning(s) in 1 file(s)\n",
        stderr: "",
      });
      const validated = await cli(["validate", "-"], { cwd: t.path, stdin: yaml });
      expect(validated.code).toBe(0);
      expect(JSON.parse(validated.stdout)).toEqual({ valid: true, errors: [], warnings: [] });
    }
  });
});
