// `stratumc lsp`: the language server on standard input and output, for any editor with
// an LSP client (docs/guides/editors.md). The server's code is loaded only here (load-server.ts).
import type { Command } from "commander";
import type { CommandContext } from "../command-context";
import { VERSION } from "../version";
import { loadLspServer } from "./load-server";

export function registerLsp(program: Command, _ctx: CommandContext): void {
  program
    .command("lsp")
    .description(
      "run the language server (diagnostics, completion, hover, navigation …) on standard input and output",
    )
    // Editors commonly pass `--stdio`; it is the only transport, so it is accepted and ignored.
    .option("--stdio", "use standard input and output (the default and only transport)")
    .action(async () => {
      const { serveLspStdio } = await loadLspServer();
      serveLspStdio(VERSION);
      // Keep the command pending: the connection ends the process on `exit` or when input closes.
      await new Promise<never>(() => {});
    });
}
