// The commands of the `check` startup snapshot (dist/stratumc-check.blob): what a pre-commit hook
// runs, and nothing else, so that the snapshot's heap stays small (docs/design/performance.md).
// cli/commands.ts lists these same entries among all the others.
import type { CommandEntry } from "./command-table";

export const CHECK_ENTRY: CommandEntry = {
  words: ["check"],
  stratumcOnly: false,
  load: async () => (await import("./check/command")).registerCheck,
};

export const VALIDATE_ENTRY: CommandEntry = {
  words: ["validate"],
  stratumcOnly: false,
  load: async () => (await import("./validate/command")).registerValidate,
};

export const CHECK_COMMANDS: readonly CommandEntry[] = [CHECK_ENTRY, VALIDATE_ENTRY];

/**
 * Whether the check-only program answers `args` exactly as the whole CLI would: `stratumc check`
 * or `validate` first, without `--deep` (which loads the fuzzer). bin/stratumc.cjs applies the same
 * rule in shell to pick the blob.
 */
export function checkOnlyServes(args: readonly string[], programName: string): boolean {
  return firstWordAmong(CHECK_COMMANDS, args, programName) && !args.includes("--deep");
}

/** Whether `args` run one of `commands` of stratumc (stratum-mcp's command set is the whole CLI's). */
export function firstWordAmong(
  commands: readonly CommandEntry[],
  args: readonly string[],
  programName: string,
): boolean {
  const first = args[0];
  return (
    programName === "stratumc" && first !== undefined && commands.some((entry) => entry.words.includes(first))
  );
}
