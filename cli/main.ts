// Entry point of the `stratumc` and `stratum-mcp` binaries (bundled to dist/stratumc.cjs).
import { EXIT_INTERNAL } from "./exit-codes";
import { processOutput } from "./output";
import { runCli } from "./program";

const programName = process.env.STRATUMC_PROG ?? "stratumc";

// A closed pipe (`stratumc … | head`) is not an error worth reporting.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
});

runCli(process.argv.slice(2), processOutput, programName).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${programName}: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = EXIT_INTERNAL;
  },
);
