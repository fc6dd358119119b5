// `stratumc lsp` as a process (the built binary: `npm run build` first): the initialize handshake
// with every capability, diagnostics over real stdio, a clean shutdown, and an exit
// when the client closes the pipe.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { TextDocumentSyncKind } from "vscode-languageserver-protocol";
import { TOKEN_TYPES } from "../../checker/services/assist";
import { cursors } from "./support/cursor";
import { SPEC_URI, spawnedClient } from "./support/lsp-client";

const bin = join(fileURLToPath(new URL("../..", import.meta.url)), "bin/stratumc.cjs");

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe("stratumc lsp over stdio", () => {
  it("announces every feature and publishes the checker's diagnostics", async () => {
    const client = await spawnedClient(bin);
    dispose = client.dispose;
    expect(client.initialize.serverInfo?.name).toBe("stratumc");
    expect(client.initialize.capabilities).toEqual({
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      completionProvider: { triggerCharacters: [".", "$", ":", " "], resolveProvider: false },
      hoverProvider: true,
      signatureHelpProvider: { triggerCharacters: ["(", ","], retriggerCharacters: [","] },
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [] }, full: true },
      codeActionProvider: { codeActionKinds: ["quickfix"] },
    });
    const marked = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
        depends_on: [<|>b<|>]
`;
    const m = cursors(marked);
    await client.open(SPEC_URI, m.text);
    const { diagnostics } = await client.diagnostics(SPEC_URI, 1);
    expect(diagnostics.map((d) => [d.code, d.range])).toEqual([
      ["SPEC-DEPENDS-ON-UNKNOWN", { start: m.positions[0], end: m.positions[1] }],
    ]);
    await client.dispose();
    dispose = undefined;
    expect(await client.exited).toBe(0);
  });

  it("exits when the client closes its input", async () => {
    const client = await spawnedClient(bin);
    dispose = async () => client.connection.dispose();
    client.child.stdin?.end();
    expect(await client.exited).toBe(1); // no shutdown request came first (LSP: exit code 1)
  });
});
