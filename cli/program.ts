// The `stratumc` command line with every subcommand (cli/commands.ts); cli/run-cli.ts loads and
// registers only the command that runs.

import { type CliHost, processHost } from "./command-context";
import { ALL_COMMANDS } from "./commands";
import type { Output } from "./output";
import { runCliWith } from "./run-cli";

/** Runs the CLI on `args` (without the node and script entries); resolves to the exit code. */
export function runCli(
  args: readonly string[],
  io: Output,
  programName = "stratumc",
  host: CliHost = processHost(),
): Promise<number> {
  return runCliWith(ALL_COMMANDS, args, io, programName, host);
}
