// `stratumc explain | schema | graph | validate` and `stratum-mcp validate`, end to end through the
// built bundle; the pre-commit hook definition.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CATALOGUE } from "../../checker/catalogue";
import { specJsonSchema } from "../../checker/schema/json-schema";
import { ensureBundle, REPO, type RunOptions, stratumc } from "./run-cli";
import { BROKEN, CLEAN, WARNINGS } from "./spec-fixtures";

let dir = "";
const PLAIN = { FORCE_COLOR: undefined, NO_COLOR: "1" };

function run(args: readonly string[], options: RunOptions = {}) {
  return stratumc(args, { cwd: dir, env: PLAIN, ...options });
}

function mcp(args: readonly string[], options: RunOptions = {}) {
  return run(args, { ...options, env: { ...PLAIN, STRATUMC_PROG: "stratum-mcp" } });
}

beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-cmds-"));
  writeFileSync(join(dir, "clean.stratum.yaml"), CLEAN);
  writeFileSync(join(dir, "broken.stratum.yaml"), BROKEN);
  writeFileSync(join(dir, "warn.stratum.yaml"), WARNINGS);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("explain", () => {
  it("prints title, severity, family, error type and doc of a code, any case", () => {
    const r = run(["explain", "spec-step-duplicate-id"]);
    const rule = CATALOGUE.get("SPEC-STEP-DUPLICATE-ID");
    expect(r.status).toBe(0);
    expect(
      r.stdout.startsWith(
        `SPEC-STEP-DUPLICATE-ID: ${rule?.title}\n\nseverity:   error\nfamily:     duplicate\n`,
      ),
    ).toBe(true);
    expect(r.stdout).toContain(`\n${rule?.doc}\n`);
  });

  it("explains IO-READ, which only the CLI reports", () => {
    expect(run(["explain", "IO-READ"]).stdout.split("\n").slice(0, 4)).toEqual([
      "IO-READ: The input cannot be read",
      "",
      "severity:   error",
      "family:     io",
    ]);
  });

  it("rejects an unknown code with a did-you-mean and the way to list every code (exit 2)", () => {
    const LIST = "`stratumc explain --list` lists every code";
    expect(run(["explain", "SPEC-STEP-DUPLICATE-IDS"])).toMatchObject({
      status: 2,
      stdout: "",
      stderr: `stratumc: unknown code 'SPEC-STEP-DUPLICATE-IDS'; did you mean 'SPEC-STEP-DUPLICATE-ID'? (${LIST})\n`,
    });
    expect(run(["explain", "NOTHING-LIKE-IT"]).stderr).toBe(
      `stratumc: unknown code 'NOTHING-LIKE-IT'; ${LIST}\n`,
    );
    expect(run(["explain", "FOO"])).toMatchObject({
      status: 2,
      stderr: `stratumc: unknown code 'FOO'; ${LIST}\n`,
    });
    // Words of a code (not a typo of a whole one): the code, or the few codes, that hold them.
    expect(run(["explain", "cycle"]).stderr).toBe(
      `stratumc: unknown code 'cycle'; did you mean 'SPEC-DEPENDENCY-CYCLE'? (${LIST})\n`,
    );
    expect(run(["explain", "duplicate-id"]).stderr).toBe(
      `stratumc: unknown code 'duplicate-id'; codes with those words: SPEC-MEMBER-DUPLICATE-ID, SPEC-STEP-DUPLICATE-ID (${LIST})\n`,
    );
    expect(run(["explain", "gate"]).stderr).toMatch(
      /^stratumc: unknown code 'gate'; \d+ codes hold those words \(`stratumc explain --list` lists every code\)\n$/,
    );
    expect(run(["explain"])).toMatchObject({ status: 2, stderr: "stratumc: missing code (or --list)\n" });
    expect(run(["explain", "X", "--list"]).status).toBe(2);
  });

  it("--list prints every code with its title, aligned", () => {
    const lines = run(["explain", "--list"]).stdout.trimEnd().split("\n");
    expect(lines.map((l) => l.split(" ")[0])).toEqual([...CATALOGUE.keys(), "IO-READ"]);
    const width = Math.max(...[...CATALOGUE.keys()].map((c) => c.length));
    expect(lines).toContain(
      `${"SUPPRESS-UNUSED".padEnd(width)}  Suppression comment that suppresses nothing`,
    );
  });
});

describe("schema", () => {
  it("prints the JSON Schema of the spec format with 2-space indentation", () => {
    const r = run(["schema"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(specJsonSchema(), null, 2)}\n`);
    expect(r.stdout.split("\n")[1]?.startsWith('  "')).toBe(true);
  });
});

describe("graph", () => {
  it("draws one flow without a subgraph when --flow is given (stdin accepted)", () => {
    const r = run(["graph", "-", "--flow", "outer"], { input: CLEAN });
    expect(r).toEqual({
      status: 0,
      stderr: "",
      stdout: [
        "flowchart TD",
        '  f0_s0[["sub<br/>flow: reviewed_work"]]',
        '  f0_s1(["after<br/>inline"])',
        "  f0_s0 --> f0_s1",
        "",
      ].join("\n"),
    });
  });

  it("prints the diagnostics of an invalid spec on stderr and exits 1", () => {
    const r = run(["graph", "broken.stratum.yaml"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("broken.stratum.yaml:9:22: error: Step 'b' depends_on unknown step 'buld'");
    expect(r.stderr.endsWith("1 error(s), 0 warning(s) in 1 file(s)\n")).toBe(true);
  });

  it("rejects an unknown flow with a did-you-mean, and an unreadable file, with exit 2", () => {
    expect(run(["graph", "clean.stratum.yaml", "--flow", "outr"])).toMatchObject({
      status: 2,
      stderr: "stratumc: unknown flow 'outr'; did you mean 'outer'?\n",
    });
    expect(run(["graph", "nope.yaml"])).toMatchObject({
      status: 2,
      stdout: "",
      stderr: "nope.yaml:1:1: error: cannot read file: file not found [IO-READ]\n\n",
    });
    expect(run(["graph", "clean.stratum.yaml", "--format", "png"]).status).toBe(2);
  });
});

describe("validate", () => {
  it("prints {valid, errors, warnings} of a valid spec, exit 0", () => {
    const r = run(["validate", "warn.stratum.yaml"]);
    expect(r.status).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(Object.keys(answer)).toEqual(["valid", "errors", "warnings"]);
    expect(answer.valid).toBe(true);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings.map((d: { code: string }) => d.code)).toEqual([
      "YAML-DUPLICATE-KEY",
      "SPEC-FN-TIMEOUT-NOT-GATE",
    ]);
    expect(r.stdout.split("\n")[1]).toBe('  "valid": true,');
  });

  it("prints the errors of an invalid spec, exit 1; reads - from stdin", () => {
    const r = run(["validate", "-"], { input: BROKEN });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: false,
      errors: [
        {
          success: false,
          error_type: "ir_semantic_error",
          path: "flows.main.steps.b.depends_on",
          message: "Step 'b' depends_on unknown step 'buld'",
          suggestion: "Did you mean 'build'?",
          code: "SPEC-DEPENDS-ON-UNKNOWN",
          severity: "error",
          line: 9,
          column: 22,
          end_line: 9,
          end_column: 26,
          fix: {
            description: "Replace 'buld' with 'build'",
            edits: [{ line: 9, column: 22, end_line: 9, end_column: 26, new_text: "build" }],
          },
        },
      ],
      warnings: [],
    });
  });

  it("stratumc: an unreadable file is 'ERROR: cannot open' on stderr with exit 2; a missing argument is usage", () => {
    expect(run(["validate", "nope.yaml"])).toEqual({
      status: 2,
      stdout: "",
      stderr: "ERROR: cannot open 'nope.yaml': file not found\n",
    });
    expect(run(["validate"]).status).toBe(2);
  });

  it("stratum-mcp: the same JSON; unreadable is exit 1; YAML text as the argument; no argument = empty text", () => {
    expect(mcp(["validate", "clean.stratum.yaml"])).toMatchObject({ status: 0, stderr: "" });
    expect(mcp(["validate", "nope.yaml"])).toEqual({
      status: 1,
      stdout: "",
      stderr: "ERROR: cannot open 'nope.yaml': file not found\n",
    });
    const inline = mcp(["validate", BROKEN]);
    expect(inline.status).toBe(1);
    expect(JSON.parse(inline.stdout).errors[0].code).toBe("SPEC-DEPENDS-ON-UNKNOWN");
    const flowMapping = mcp(["validate", '{version: "0.2", flows: {}}']);
    expect([flowMapping.status, JSON.parse(flowMapping.stdout).valid]).toEqual([0, true]);
    const empty = mcp(["validate"]);
    expect(empty.status).toBe(1);
    expect(JSON.parse(empty.stdout).errors.map((d: { code: string }) => d.code)).toEqual(["YAML-EMPTY"]);
  });

  it("stratum-mcp: the binary names itself stratum-mcp and keeps eval", () => {
    const help = spawnSync(process.execPath, [join(REPO, "bin/stratum-mcp.cjs"), "--help"], {
      encoding: "utf8",
    });
    expect(help.status).toBe(0);
    expect(help.stdout.startsWith("Usage: stratum-mcp [options] [command]")).toBe(true);
    expect(mcp(["eval", "1 + 1"])).toMatchObject({ status: 0, stdout: "2\n" });
  });
});

describe("pre-commit hook", () => {
  it("defines stratumc-check for .stratum.yaml / .stratum.yml files", () => {
    const hooks = parse(readFileSync(join(REPO, ".pre-commit-hooks.yaml"), "utf8"));
    expect(hooks).toEqual([
      expect.objectContaining({
        id: "stratumc-check",
        entry: "stratumc check",
        language: "node",
        files: "\\.stratum\\.ya?ml$",
        pass_filenames: true,
      }),
    ]);
    const pattern = new RegExp(hooks[0].files);
    expect(["a.stratum.yaml", "x/b.stratum.yml"].every((f) => pattern.test(f))).toBe(true);
    expect(["a.yaml", "a.stratum.yaml.bak"].some((f) => pattern.test(f))).toBe(false);
  });
});
