// The stratum-mcp command line rules of docs/reference/runtime.md §21.1 that are not one command's own: help,
// the refused commands (DIV-BEYOND-CLI) and unknown commands — in process, through runCli.
import { describe, expect, it } from "vitest";
import { cli, mcp } from "../compile/harness";

const CWD = import.meta.dirname;

const HELP = `Usage: stratum-mcp [options] [command]

Commands:
  (no command)                                  run the MCP server on standard input and output (for Claude Code)
  --http HOST:PORT                              run it over Streamable HTTP at http://HOST:PORT/mcp (a team server)
  install                                       register the MCP server, skills and hooks with Claude Code
  uninstall [--keep-skills]                     remove what install added
  validate <file-or-yaml>                       validate a .stratum.yaml spec (a file, or the YAML text itself)
  compile <dir> [--output FILE] [--flow NAME]   compile spec-kit task files (*.md) into a spec
  query flows [--all] | flow <id> | gates       print the flows kept in $STRATUM_HOME/flows as JSON
  gate approve|reject|revise <flow_id> <step_id> [--note TEXT] [--resolved-by human|agent|system] [--next]  resolve the gate a flow waits at
  -h, --help, help                              print this help
`;

const unknown = (word: string) => ({
  code: 1,
  stdout: "",
  stderr: `Unknown command: ${word}\nRun 'stratum-mcp --help' for usage.\n`,
});

describe("stratum-mcp -h | --help | help", () => {
  it("prints one line per command on standard output, exit 0, whatever follows", async () => {
    for (const args of [["-h"], ["--help"], ["help"], ["help", "compile"], ["--help", "--nonsense"]]) {
      const r = await mcp(args, { cwd: CWD });
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout.startsWith(HELP)).toBe(true);
      // Then the stratumc commands this binary also runs, as registered.
      expect(r.stdout.slice(HELP.length)).toMatch(
        /^\nAlso accepted, as in stratumc \(stratumc <command> --help\): (\w+, )*eval\n$/,
      );
    }
  });

  it("lists every docs/reference/runtime.md §21.1 command word, and our --http", async () => {
    const { stdout } = await mcp(["--help"], { cwd: CWD });
    const words = stdout
      .split("\n")
      .filter((line) => line.startsWith("  "))
      .map((line) => line.trim().split(" ")[0]);
    expect(words).toEqual([
      "(no",
      "--http",
      "install",
      "uninstall",
      "validate",
      "compile",
      "query",
      "gate",
      "-h,",
    ]);
  });
});

describe("stratum-mcp migrate | guard | doctor", () => {
  it("are refused with ERROR: '<command>' is not supported by this implementation, exit 1", async () => {
    for (const args of [["migrate"], ["migrate", "spec.yaml", "--to", "0.2"], ["guard", "x"], ["doctor"]]) {
      expect(await mcp(args, { cwd: CWD })).toEqual({
        code: 1,
        stdout: "",
        stderr: `ERROR: '${args[0]}' is not supported by this implementation\n`,
      });
    }
  });
});

describe("stratum-mcp unknown commands", () => {
  it("print Unknown command: <x> and the --help hint on standard error, exit 1", async () => {
    for (const word of ["frobnicate", "--nonsense", "-x", "Compile", "flows", ""]) {
      expect(await mcp([word, "more"], { cwd: CWD })).toEqual(unknown(word));
    }
  });

  it("leave the registered commands, their aliases and --version to commander", async () => {
    expect(await mcp(["validate", '{version: "0.2", flows: {}}'], { cwd: CWD })).toMatchObject({ code: 0 });
    expect(await mcp(["eval", "1 + 1"], { cwd: CWD })).toEqual({ code: 0, stdout: "2\n", stderr: "" });
    const version = await mcp(["--version"], { cwd: CWD });
    expect([version.code, version.stdout]).toEqual([0, `${(await cli(["--version"], { cwd: CWD })).stdout}`]);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("stratumc keeps commander's own handling (usage error, exit 2)", async () => {
    expect(await cli(["doctor"], { cwd: CWD })).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: unknown command 'doctor'\n",
    });
  });
});
