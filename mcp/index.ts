// The MCP server's public surface: the stdio server the CLI's `serve` and the `stratum-mcp`
// binary start.
export { serveMcp } from "./serve";
