// The `stratumc` command line over a table of subcommands: commander set-up and the one place
// that turns errors into exit codes. User mistakes print one line; anything unexpected prints
// `stratumc: internal error: …` and exits 3 — never a stack trace.
//
// Run with a command's word first (`stratumc check …`), only that command is loaded and
// registered; anything else (`--help`, `--version`, `help check`, an unknown word, nothing)
// registers the whole table, so help, usage errors and suggestions are those of the full program.
import { Command, CommanderError } from "commander";
import type { CliHost, CommandContext } from "./command-context";
import type { CommandEntry, Register } from "./command-table";
import { EXIT_ERRORS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UsageError } from "./exit-codes";
import { docsPointer } from "./installed-docs";
import type { Output } from "./output";
import { MCP_PROGRAM } from "./program-name";
import { VERSION } from "./version";

/**
 * The flow store's errors that are about the store, not a bug: their messages name the store
 * (never its password) and what to do. Known by name, so that this module, which every command
 * loads, imports neither the engine nor the store.
 */
export const STORE_ERRORS: ReadonlySet<string> = new Set([
  "StoreUnavailableError",
  "StoreUnwritableError",
  "StoreLockedError",
  "StaleStateError",
  "FlowCorruptError",
  "SchemaTooNewError",
  "StorePermissionError",
  "StoreUrlError",
]);

/** Runs the CLI on `args` (without the node and script entries); resolves to the exit code. */
export async function runCliWith(
  table: readonly CommandEntry[],
  args: readonly string[],
  io: Output,
  programName: string,
  host: CliHost,
): Promise<number> {
  let exitCode = EXIT_OK;
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  const mcp = programName === MCP_PROGRAM;
  const program = new Command(programName)
    .version(VERSION)
    .description("checked toolchain for .stratum.yaml specs")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  // stratum-mcp's help is the reference's (mcp-commands/); stratumc's ends with where the docs are.
  if (!mcp) program.addHelpText("after", () => `\n${docsPointer("README.md").trimEnd()}`);
  const ctx: CommandContext = { io, host, programName, setExitCode };
  // Bare `stratum-mcp` is the MCP server, as the reference's command line (docs/reference/runtime.md §21.1).
  // So is `stratum-mcp --http HOST:PORT`, over Streamable HTTP.
  const effective =
    mcp && (args.length === 0 || args[0] === "--http" || args[0]?.startsWith("--http="))
      ? ["serve", ...args]
      : args;
  for (const register of await registrations(table, effective[0], mcp)) register(program, ctx);
  try {
    if (mcp) {
      // stratum-mcp's help, unknown and unsupported commands and its `compile` words (docs/reference/runtime.md §21.1).
      const { runMcpOnlyCommand } = await import("./mcp-commands/dispatch");
      if (runMcpOnlyCommand(program, effective, ctx)) return exitCode;
    }
    await program.parseAsync([...effective], { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT_OK : EXIT_USAGE; // already printed
    if (e instanceof UsageError) {
      io.err(`${programName}: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof Error && STORE_ERRORS.has(e.name)) {
      io.err(`${programName}: ${e.message}\n`);
      return EXIT_ERRORS;
    }
    io.err(`${programName}: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_INTERNAL;
  }
}

/** The command run by `first` alone when it names one, otherwise every command of the program. */
function registrations(
  table: readonly CommandEntry[],
  first: string | undefined,
  mcp: boolean,
): Promise<Register[]> {
  const available = mcp ? table.filter((entry) => !entry.stratumcOnly) : table;
  const named = first === undefined ? undefined : available.find((entry) => entry.words.includes(first));
  return Promise.all((named === undefined ? available : [named]).map((entry) => entry.load()));
}
