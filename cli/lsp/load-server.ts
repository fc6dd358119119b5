// Loads the language server only when it is asked for. In the shipped CLI it is a separate bundle
// (dist/lsp.cjs: vscode-languageserver is not something `check` or the startup snapshot should
// carry); from the sources (tests) it is a plain import. createRequire, because a process started
// from the V8 snapshot can `require` only built-in modules with its own require.
import { createRequire } from "node:module";

declare const STRATUMC_BUNDLED: boolean | undefined;

export type LspServerModule = typeof import("../../lsp/index");

export async function loadLspServer(): Promise<LspServerModule> {
  if (typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED) {
    return createRequire(import.meta.url)("./lsp.cjs") as LspServerModule;
  }
  return import("../../lsp/index");
}
