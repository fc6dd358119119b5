// Loads the MCP client of `replay --server` only when it is asked for. In the shipped CLI it is a
// separate bundle (dist/mcp-client.cjs: the MCP SDK and zod are nothing `check` or the startup
// snapshot should carry); from the sources (tests) it is a plain import. createRequire, because a
// process started from the V8 snapshot can `require` only built-in modules with its own require.
import { createRequire } from "node:module";

declare const STRATUMC_BUNDLED: boolean | undefined;

export type McpClientModule = typeof import("./mcp-client");

export async function loadMcpClient(): Promise<McpClientModule> {
  if (typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED) {
    return createRequire(import.meta.url)("./mcp-client.cjs") as McpClientModule;
  }
  return import("./mcp-client");
}
