// Loads the MCP client of `replay --server` only when it is asked for: in the shipped CLI it is a
// separate bundle (dist/mcp-client.cjs: the MCP SDK and zod are nothing `check` or the startup
// snapshot should carry).
import { loadSeparateBundle } from "../../host/index";

export type McpClientModule = typeof import("./mcp-client");

export function loadMcpClient(): Promise<McpClientModule> {
  return loadSeparateBundle("mcp-client.cjs", () => import("./mcp-client"));
}
