// The rules of the `stratum-mcp` command line that commander does not express (docs/reference/runtime.md §21.1),
// applied to the words before commander sees them:
// - `-h`, `--help`, `help` print the usage text on standard output, exit 0;
// - `migrate`, `guard`, `doctor` are refused: `ERROR: '<command>' is not supported by this
//   implementation`, exit 1 (DIV-BEYOND-CLI);
// - `compile` reads its words as the reference does (cli/compile/mcp-words.ts);
// - any other first word that is not a registered command (or alias) is `Unknown command: <x>`
//   plus `Run 'stratum-mcp --help' for usage.`, exit 1 — options included (`--foo`), except
//   `-V`/`--version`, which we keep (the reference has no version flag; answering one is harmless).
// Everything else (registered commands, bare `stratum-mcp`) goes on to commander.
import type { Command } from "commander";
import type { CommandContext } from "../command-context";
import { MCP_COMPILE_USAGE, parseMcpCompileWords } from "../compile/mcp-words";
import { runCompile } from "../compile/run-compile";
import { EXIT_ERRORS, EXIT_OK } from "../exit-codes";
import { mcpUsage, REFERENCE_COMMANDS } from "./usage";

const HELP_WORDS: ReadonlySet<string> = new Set(["-h", "--help", "help"]);
const UNSUPPORTED: ReadonlySet<string> = new Set(["migrate", "guard", "doctor"]);
const VERSION_WORDS: ReadonlySet<string> = new Set(["-V", "--version"]);

/** Handles `args` when one of the rules above applies; false = let commander run them. */
export function runMcpOnlyCommand(program: Command, args: readonly string[], ctx: CommandContext): boolean {
  const first = args[0];
  if (first === undefined) return false;
  if (HELP_WORDS.has(first)) {
    ctx.io.out(mcpUsage(registeredNames(program).filter((name) => !REFERENCE_COMMANDS.has(name))));
    ctx.setExitCode(EXIT_OK);
    return true;
  }
  if (UNSUPPORTED.has(first)) {
    ctx.io.err(`ERROR: '${first}' is not supported by this implementation\n`);
    ctx.setExitCode(EXIT_ERRORS);
    return true;
  }
  if (first === "compile") {
    const request = parseMcpCompileWords(args.slice(1));
    if (request === null) {
      ctx.io.err(`${MCP_COMPILE_USAGE}\n`);
      ctx.setExitCode(EXIT_ERRORS);
    } else {
      runCompile(ctx, request);
    }
    return true;
  }
  if (VERSION_WORDS.has(first) || isRegistered(program, first)) return false;
  ctx.io.err(`Unknown command: ${first}\nRun 'stratum-mcp --help' for usage.\n`);
  ctx.setExitCode(EXIT_ERRORS);
  return true;
}

function registeredNames(program: Command): string[] {
  return program.commands.map((command) => command.name());
}

function isRegistered(program: Command, word: string): boolean {
  return program.commands.some((command) => command.name() === word || command.aliases().includes(word));
}
