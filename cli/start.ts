// Runs a CLI entry on the process: arguments, the program name (STRATUMC_PROG), output streams and
// the exit code (cli/main.ts for the whole CLI, cli/main-check.ts for the `check` snapshot).
import { EXIT_INTERNAL } from "./exit-codes";
import { type Output, processOutput } from "./output";

export type RunCli = (args: readonly string[], io: Output, programName: string) => Promise<number>;

export interface StartOptions {
  /**
   * End the process as soon as the command's promise settles and its output has reached the
   * operating system, instead of when the event loop empties: node then skips tearing down the
   * environment and the heap, which a start from a large startup snapshot pays for on every exit
   * (docs/design/startup.md). Only for programs whose commands finish all their work, timers and
   * watchers included, before their promise settles (cli/main-check.ts).
   */
  readonly exitWhenDone?: boolean;
}

export function startCli(run: RunCli, options: StartOptions = {}): void {
  const programName = process.env.STRATUMC_PROG ?? "stratumc";
  // A closed pipe (`stratumc … | head`) is not an error worth reporting.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  });
  run(process.argv.slice(2), processOutput, programName).then(
    (code) => {
      process.exitCode = code;
      if (options.exitWhenDone === true) exitIfFlushed(code);
    },
    (e: unknown) => {
      process.stderr.write(`${programName}: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT_INTERNAL;
      if (options.exitWhenDone === true) exitIfFlushed(EXIT_INTERNAL);
    },
  );
}

/**
 * Exits now when nothing written is still queued in the process (writes to files, pipes and
 * terminals complete at once on Linux); otherwise node exits by itself once the queue drains, so
 * no output is ever cut short.
 */
function exitIfFlushed(code: number): void {
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
}
