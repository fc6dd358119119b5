// The commands of the `explore` startup snapshot (dist/stratumc-explore.blob): `check --deep` and
// `fuzz`, which run the fuzzer, with `check` and `validate` beside them. Its heap holds the checker
// and the fuzzer initialised and warmed up, without the other commands, so it deserialises faster
// than the whole CLI's (docs/design/startup.md). cli/commands.ts lists these same entries among all
// the others.
import { CHECK_ENTRY, firstWordAmong, VALIDATE_ENTRY } from "./check-commands";
import type { CommandEntry } from "./command-table";

export const FUZZ_ENTRY: CommandEntry = {
  words: ["fuzz"],
  stratumcOnly: true,
  load: async () => (await import("./fuzz/command")).registerFuzz,
};

export const EXPLORE_COMMANDS: readonly CommandEntry[] = [CHECK_ENTRY, VALIDATE_ENTRY, FUZZ_ENTRY];

/**
 * Whether the explore program answers `args` exactly as the whole CLI would: `stratumc check`,
 * `validate` or `fuzz` first. bin/stratumc.cjs starts it for `check --deep` and `fuzz`.
 */
export function exploreServes(args: readonly string[], programName: string): boolean {
  return firstWordAmong(EXPLORE_COMMANDS, args, programName);
}
