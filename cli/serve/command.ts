// `stratumc serve` (alias `stratumc mcp`) and bare `stratum-mcp`: the MCP server on stdio
// (docs/reference/runtime.md §16, docs/reference/runtime.md §21). The server process (mcp/process.ts) is loaded only
// here (load-server.ts).
import type { Command } from "commander";
import { specJsonSchema } from "../../checker/index";
import { gateSettingOf } from "../../host/index";
import { SKILLS } from "../../install/index";
import type { CommandContext } from "../command-context";
import { UsageError } from "../exit-codes";
import { refreshHookScripts } from "../install/command";
import { STORE_OPTION_FLAGS, STORE_OPTION_HELP, withStoreOption } from "../store-location";
import { VERSION } from "../version";
import { loadServer } from "./load-server";

export function registerServe(program: Command, ctx: CommandContext): void {
  program
    .command("serve")
    .alias("mcp")
    .description("run the MCP server (the stratum_* tools) on standard input and output")
    .option(STORE_OPTION_FLAGS, STORE_OPTION_HELP)
    .option(
      "--http <host:port>",
      "serve /mcp over Streamable HTTP at HOST:PORT instead (bearer token from STRATUM_MCP_TOKEN, else printed once; docs/guides/mcp-server-http.md)",
    )
    .action(async (flags: { readonly store?: string; readonly http?: string }) => {
      // Before anything else: a server that would not guard its gates as asked must not start.
      const gates = gateSettingOf(ctx.host.env);
      if (!gates.ok) throw new UsageError(gates.message);
      // Like the reference's server start: bring $STRATUM_HOME/hooks up to date, quietly (docs/reference/runtime.md §21.1).
      const refreshed = await refreshHookScripts(ctx);
      if (refreshed !== null) ctx.io.err(refreshed);
      const { serveStdio } = await loadServer();
      try {
        await serveStdio({
          host: withStoreOption(ctx.host, flags.store),
          programName: ctx.programName,
          version: VERSION,
          log: (text) => ctx.io.err(text),
          // Plain data from this bundle: the server's bundle carries neither the checker's schema
          // builder nor the installer's skills (resources and prompts, docs/guides/mcp-server-resources.md).
          specSchema: `${JSON.stringify(specJsonSchema(), null, 2)}\n`,
          skills: SKILLS,
          http: flags.http,
        });
      } catch (e) {
        // A wrong --http address or STRATUM_MCP_* setting (mcp/http/setting-error.ts).
        if (e instanceof Error && e.name === "HttpSettingError") throw new UsageError(e.message);
        throw e;
      }
    });
}
