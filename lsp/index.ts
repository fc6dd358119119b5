// The language server's public surface: the stdio server `stratumc lsp` starts (dist/lsp.cjs in the
// shipped CLI, loaded only when asked for).
export { serveLspStdio } from "./serve-stdio";
