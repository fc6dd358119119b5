// Entry point of the smaller startup snapshots (scripts/snapshot-check-entry.ts,
// scripts/snapshot-explore-entry.ts): runs the command lines a program of a few commands serves,
// and hands any other to the whole CLI (the plain bundle, `fullCli`), so the answer is always the
// whole CLI's. bin/stratumc.cjs starts each snapshot only for command lines it serves.
import { CHECK_COMMANDS, checkOnlyServes } from "./check-commands";
import { processHost } from "./command-context";
import type { CommandEntry } from "./command-table";
import { runCliWith } from "./run-cli";
import { startCli } from "./start";

/** The `check` snapshot's program: `check` and `validate` without --deep. */
export function startCheckCli(fullCli: () => void): void {
  startPartialCli(CHECK_COMMANDS, checkOnlyServes, fullCli);
}

export function startPartialCli(
  commands: readonly CommandEntry[],
  serves: (args: readonly string[], programName: string) => boolean,
  fullCli: () => void,
): void {
  const programName = process.env.STRATUMC_PROG ?? "stratumc";
  if (!serves(process.argv.slice(2), programName)) {
    fullCli();
    return;
  }
  // These commands have finished everything (files written, workers and watchers closed) when
  // their promise settles: the process ends there instead of tearing the snapshot's heap down.
  startCli((args, io, name) => runCliWith(commands, args, io, name, processHost()), {
    exitWhenDone: true,
  });
}
