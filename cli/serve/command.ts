// `stratumc serve` (alias `stratumc mcp`) and bare `stratum-mcp`: the MCP server on stdio
// (runtime.md §16, §21). The server's code is loaded only here, so the other commands (and the
// startup snapshot they run from) never pay for the MCP SDK.
import type { Command } from "commander";
import { createFlowHost } from "../flow-host";
import type { CommandContext } from "../host";
import { VERSION } from "../version";

export function registerServe(program: Command, ctx: CommandContext): void {
  program
    .command("serve")
    .alias("mcp")
    .description("run the MCP server (the stratum_* tools) on standard input and output")
    .action(async () => {
      const { serveMcp } = await import("../../mcp/serve");
      const log = (text: string) => ctx.io.err(text);
      const host = createFlowHost(ctx.host, (details) => log(`${ctx.programName}: ${details}\n`));
      // Serving is process-level: the protocol runs on the process's own standard streams.
      await serveMcp({
        api: host.api(),
        version: VERSION,
        input: process.stdin,
        output: process.stdout,
        log,
      });
    });
}
