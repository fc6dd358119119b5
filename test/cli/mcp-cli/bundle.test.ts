// `compile` and the stratum-mcp command line rules through the built binaries (bin/stratum-mcp.cjs,
// bin/stratumc.cjs over dist/; run `npm run build` after changing the CLI): streams, exit codes,
// and a compiled spec that the other commands of the binaries accept.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FIXTURE_ROOT, referenceYaml, TempDir } from "../compile/harness";
import { ensureBundle, REPO } from "../run-cli";

const PLAIN_ENV = { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined };

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function answer(r: SpawnSyncReturns<string>): Run {
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** bin/stratum-mcp.cjs, run by node as a package manager's shim would. */
function stratumMcp(args: readonly string[], cwd: string, input = ""): Run {
  return answer(
    spawnSync(process.execPath, [`${REPO}/bin/stratum-mcp.cjs`, ...args], {
      cwd,
      input,
      encoding: "utf8",
      env: PLAIN_ENV,
    }),
  );
}

/** bin/stratumc.cjs run as a program (its shell prologue may start node from the startup snapshot). */
function stratumc(args: readonly string[], cwd: string, input = ""): Run {
  return answer(
    spawnSync(`${REPO}/bin/stratumc.cjs`, [...args], { cwd, input, encoding: "utf8", env: PLAIN_ENV }),
  );
}

let out: TempDir;
beforeAll(() => {
  ensureBundle();
  out = new TempDir();
});
afterAll(() => out.dispose());

describe("compile through the binaries", () => {
  it("stratum-mcp compile prints the reference's document; stratumc check - and stratum-mcp validate accept it", () => {
    const compiled = stratumMcp(["compile", "tasks", "--flow", "build"], FIXTURE_ROOT);
    expect([compiled.status, compiled.stderr]).toEqual([0, ""]);
    expect(parse(compiled.stdout)).toEqual(parse(referenceYaml("build")));
    expect(stratumc(["check", "-"], out.path, compiled.stdout)).toEqual({
      status: 0,
      stdout: "0 error(s), 0 warning(s) in 1 file(s)\n",
      stderr: "",
    });
    // The YAML text itself as validate's argument (it has line breaks).
    const validated = stratumMcp(["validate", compiled.stdout], out.path);
    expect([validated.status, JSON.parse(validated.stdout)]).toEqual([
      0,
      { valid: true, errors: [], warnings: [] },
    ]);
  });

  it("stratumc compile --output writes the same text and says where", () => {
    const target = `${out.path}/specs/tasks.stratum.yaml`;
    expect(stratumc(["compile", "tasks", "--output", target], FIXTURE_ROOT)).toEqual({
      status: 0,
      stdout: `Written to ${target}\n`,
      stderr: "",
    });
    expect(out.read("specs/tasks.stratum.yaml")).toBe(stratumMcp(["compile", "tasks"], FIXTURE_ROOT).stdout);
    expect(stratumc(["validate", "specs/tasks.stratum.yaml"], out.path).status).toBe(0);
  });

  it("usage and directory errors: standard error, exit 1 (stratumc: a missing directory is exit 2)", () => {
    expect(stratumMcp(["compile"], out.path)).toEqual({
      status: 1,
      stdout: "",
      stderr: "Usage: stratum-mcp compile <tasks_dir> [--output <file>] [--flow <name>]\n",
    });
    expect(stratumMcp(["compile", "nowhere"], out.path)).toEqual({
      status: 1,
      stdout: "",
      stderr: "ERROR: 'nowhere' is not a directory\n",
    });
    expect(stratumc(["compile", "nowhere"], out.path)).toEqual({
      status: 1,
      stdout: "",
      stderr: "ERROR: 'nowhere' is not a directory\n",
    });
    expect(stratumc(["compile"], out.path).status).toBe(2);
  });
});

describe("stratum-mcp command line rules through the binary", () => {
  it("help on standard output, exit 0; refused and unknown commands on standard error, exit 1", () => {
    const help = stratumMcp(["help"], out.path);
    expect([help.status, help.stderr]).toEqual([0, ""]);
    expect(help.stdout).toMatch(
      /^Usage: stratum-mcp \[options\] \[command\]\n\nCommands:\n {2}\(no command\) /,
    );
    expect(help.stdout).toContain("\n  compile <dir> [--output FILE] [--flow NAME]   ");
    expect(stratumMcp(["guard", "--strict"], out.path)).toEqual({
      status: 1,
      stdout: "",
      stderr: "ERROR: 'guard' is not supported by this implementation\n",
    });
    expect(stratumMcp(["bogus"], out.path)).toEqual({
      status: 1,
      stdout: "",
      stderr: "Unknown command: bogus\nRun 'stratum-mcp --help' for usage.\n",
    });
  });
});
