// Entry point of the `check` startup snapshot (scripts/snapshot-check-entry.ts): runs
// `stratumc check` / `validate` with the check-only program. bin/stratumc.cjs starts this snapshot
// only for command lines it serves; any other is handed to the whole CLI (the plain bundle,
// `fullCli`), so the answer is always the whole CLI's.
import { CHECK_COMMANDS, checkOnlyServes } from "./check-commands";
import { processHost } from "./command-context";
import { runCliWith } from "./run-cli";
import { startCli } from "./start";

export function startCheckCli(fullCli: () => void): void {
  const programName = process.env.STRATUMC_PROG ?? "stratumc";
  if (!checkOnlyServes(process.argv.slice(2), programName)) {
    fullCli();
    return;
  }
  // `check` and `validate` have finished everything (files fixed, watchers closed) when their
  // promise settles: the process ends there instead of tearing the snapshot's heap down.
  startCli((args, io, name) => runCliWith(CHECK_COMMANDS, args, io, name, processHost()), {
    exitWhenDone: true,
  });
}
