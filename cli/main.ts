// Entry point of the `stratumc` and `stratum-mcp` binaries (bundled to dist/stratumc.cjs).
import { runCli } from "./program";
import { startCli } from "./start";

startCli(runCli);
