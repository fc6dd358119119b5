// Loads the MCP server process only when it is asked for: in the shipped CLI it is a separate
// bundle (dist/mcp.cjs: the MCP SDK, zod and ajv are ~1.2 MB that `check` and the startup snapshot
// must not carry).
import { loadSeparateBundle } from "../../host/index";

export type ServerModule = typeof import("../../mcp/index");

export function loadServer(): Promise<ServerModule> {
  return loadSeparateBundle("mcp.cjs", () => import("../../mcp/index"));
}
