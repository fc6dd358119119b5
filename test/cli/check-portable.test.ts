// `stratumc check --portable[=VERSION]` end to end through bin/stratumc.cjs (the built bundle): the
// SPEC-NOT-PORTABLE warnings with their text and location, the exit code (warnings pass unless
// --max-warnings says otherwise), nothing without the flag, --format json, and the help text.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "./run-cli";

const QUORUM = `version: "0.3"
contracts:
  Classification:
    severity: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: classify
        type: quorum
        intent: "Classify the ticket"
        output_contract: Classification
        runs: 3
        agree_on: "result.severity"
`;

let dir = "";

/** Runs the installed entry point (the shell/CommonJS launcher) by node, so without the snapshot. */
function check(args: readonly string[]) {
  const r = spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), "check", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-portable-"));
  writeFileSync(join(dir, "quorum.stratum.yaml"), QUORUM);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("check --portable", () => {
  it("warns at the type value and at each quorum key, and exits 0", () => {
    const r = check(["--portable", "quorum.stratum.yaml"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      "quorum.stratum.yaml:10:15: warning: type: quorum is stratumc-only: stratum-mcp 0.2.69 rejects it [SPEC-NOT-PORTABLE]\n" +
        " 10 |         type: quorum\n" +
        "    |               ^^^^^^\n" +
        "  = help: Run the copies as tasks of a parallel_dispatch step and count the agreeing results in its ensure, or keep this spec for stratumc only\n",
    );
    expect(r.stdout).toContain(
      "quorum.stratum.yaml:13:9: warning: 'runs' (quorum steps) is stratumc-only: stratum-mcp 0.2.69 rejects it [SPEC-NOT-PORTABLE]\n",
    );
    expect(r.stdout).toContain(
      "quorum.stratum.yaml:14:9: warning: 'agree_on' (quorum steps) is stratumc-only: stratum-mcp 0.2.69 rejects it [SPEC-NOT-PORTABLE]\n",
    );
    expect(r.stdout.endsWith("0 error(s), 3 warning(s) in 1 file(s)\n")).toBe(true);
  });

  it("reports nothing without the flag", () => {
    const r = check(["quorum.stratum.yaml"]);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, "0 error(s), 0 warning(s) in 1 file(s)\n", ""]);
  });

  it("fails like any warning with --max-warnings", () => {
    const r = check(["--portable", "--max-warnings", "0", "quorum.stratum.yaml"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("3 warning(s), more than --max-warnings 0");
  });

  it("gives the exact ranges in --format json", () => {
    const r = check(["--portable", "--format", "json", "quorum.stratum.yaml"]);
    expect(r.status).toBe(0);
    const text = JSON.stringify(JSON.parse(r.stdout));
    for (const range of [
      '"line":10,"column":15,"end_line":10,"end_column":21',
      '"line":13,"column":9,"end_line":13,"end_column":13',
      '"line":14,"column":9,"end_line":14,"end_column":17',
    ])
      expect(text).toContain(range);
    expect(text.match(/"code":"SPEC-NOT-PORTABLE"/g)).toHaveLength(3);
  });

  it("keeps the warnings in the report after --fix-dry-run (the fixed text is checked with --portable too)", () => {
    writeFileSync(
      join(dir, "fixable.stratum.yaml"),
      QUORUM.replace(
        'agree_on: "result.severity"',
        'agree_on: "result.severity"\n        ensure: ["result.severity != null"]',
      ),
    );
    const r = check(["--portable", "--fix-dry-run", "fixable.stratum.yaml"]);
    expect(r.stdout).toContain('+        ensure: ["result.severity != None"]');
    expect(r.stdout).not.toContain("EXPR-LOWERCASE-LITERAL");
    expect(r.stdout.match(/\[SPEC-NOT-PORTABLE\]/g)).toHaveLength(3);
  });

  it("checks against the version given with =, 0.2.69 by default, and refuses a version it does not know", () => {
    const old = check(["--portable=0.2.50", "quorum.stratum.yaml"]);
    expect(old.status).toBe(0);
    expect(old.stdout).toContain("warning: type: quorum is stratumc-only: stratum-mcp 0.2.50 rejects it");
    const current = check(["quorum.stratum.yaml", "--portable=0.2.69"]);
    expect(current.stdout).toBe(check(["--portable", "quorum.stratum.yaml"]).stdout);
    const unknown = check(["--portable=0.3.0", "quorum.stratum.yaml"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(
      "--portable=0.3.0: unknown stratum-mcp version; expected 0.2.50 or 0.2.69",
    );
  });

  it("is in check's help", () => {
    const r = check(["--help"]);
    expect(r.stdout).toMatch(/--portable \[version\]\s+also warn \(SPEC-NOT-PORTABLE\)/);
  });
});
