// `stratumc lsp`: the language server on standard input and output. This module is the entry of
// the separate bundle dist/lsp.cjs (cli/lsp/load-server.ts loads it only for this command).
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { startLanguageServer } from "./server";

/** Serves until the client closes the connection or sends `exit` (the library then ends the process). */
export function serveLspStdio(version: string): void {
  // Standard output carries the protocol: anything a dependency logs goes to standard error.
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${args.map(String).join(" ")}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  startLanguageServer(connection, { name: "stratumc", version });
}
