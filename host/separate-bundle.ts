// Loads a part of stratumc that ships as a bundle of its own (the MCP server, the language server,
// the MCP client of `replay --server`, the web page's server, the PostgreSQL client library:
// dist/<name>.cjs), so that no other command carries it. In the shipped CLI it is required from
// beside the running bundle (createRequire: a process started from the V8 snapshot can `require` only built-in modules with
// its own require); from the sources (tests) `fromSources` imports the module itself.
import { createRequire } from "node:module";

declare const STRATUMC_BUNDLED: boolean | undefined;

export async function loadSeparateBundle<T>(bundle: string, fromSources: () => Promise<T>): Promise<T> {
  if (typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED) {
    return createRequire(import.meta.url)(`./${bundle}`) as T;
  }
  return fromSources();
}
