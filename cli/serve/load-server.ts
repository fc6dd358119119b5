// Loads the MCP server only when it is asked for. In the shipped CLI it is a separate bundle
// (dist/mcp.cjs: the MCP SDK, zod and ajv are ~1.2 MB that `check` and the startup snapshot must
// not carry); from the sources (tests) it is a plain import. createRequire, because a process
// started from the V8 snapshot can `require` only built-in modules with its own require.
import { createRequire } from "node:module";

declare const STRATUMC_BUNDLED: boolean | undefined;

export type ServerModule = typeof import("./serve-stdio");

export async function loadServer(): Promise<ServerModule> {
  if (typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED) {
    return createRequire(import.meta.url)("./mcp.cjs") as ServerModule;
  }
  return import("./serve-stdio");
}
