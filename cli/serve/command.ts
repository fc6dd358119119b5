// `stratumc serve` (alias `stratumc mcp`) and bare `stratum-mcp`: the MCP server on stdio
// (runtime.md §16, §21). The server's code is loaded only here (load-server.ts).
import type { Command } from "commander";
import type { CommandContext } from "../host";
import { loadServer } from "./load-server";

export function registerServe(program: Command, ctx: CommandContext): void {
  program
    .command("serve")
    .alias("mcp")
    .description("run the MCP server (the stratum_* tools) on standard input and output")
    .action(async () => {
      const { serveStdio } = await loadServer();
      await serveStdio(ctx.host, ctx.programName, (text) => ctx.io.err(text));
    });
}
