// Entry point of the `stratumc` and `stratum-mcp` binaries.
import { Command } from "commander";

const program = new Command(process.env.STRATUMC_PROG ?? "stratumc");
program.version("0.1.0");
program.parse();
