// Loads the language server only when it is asked for: in the shipped CLI it is a separate bundle
// (dist/lsp.cjs: vscode-languageserver is not something `check` or the startup snapshot should
// carry).
import { loadSeparateBundle } from "../../host/index";

export type LspServerModule = typeof import("../../lsp/index");

export function loadLspServer(): Promise<LspServerModule> {
  return loadSeparateBundle("lsp.cjs", () => import("../../lsp/index"));
}
