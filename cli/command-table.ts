// The shape of a table of subcommands whose modules are loaded only when needed (cli/run-cli.ts):
// `stratumc check` loads and registers `check` alone, so it pays for no other command.
import type { Command } from "commander";
import type { CommandContext } from "./command-context";

/** Adds one subcommand (or a family, such as install/uninstall) to the program. */
export type Register = (program: Command, ctx: CommandContext) => void;

export interface CommandEntry {
  /** The words that run it: command names and aliases. */
  readonly words: readonly string[];
  /** stratumc's own: not a command of stratum-mcp (docs/reference/runtime.md §21.1). */
  readonly stratumcOnly: boolean;
  load(): Promise<Register>;
}
