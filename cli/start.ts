// Runs a CLI entry on the process: arguments, the program name (STRATUMC_PROG), output streams and
// the exit code (cli/main.ts for the whole CLI, cli/main-check.ts for the `check` snapshot).
import { EXIT_INTERNAL } from "./exit-codes";
import { type Output, processOutput } from "./output";

export type RunCli = (args: readonly string[], io: Output, programName: string) => Promise<number>;

export function startCli(run: RunCli): void {
  const programName = process.env.STRATUMC_PROG ?? "stratumc";
  // A closed pipe (`stratumc … | head`) is not an error worth reporting.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  });
  run(process.argv.slice(2), processOutput, programName).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`${programName}: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT_INTERNAL;
    },
  );
}
