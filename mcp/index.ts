// The MCP server's public surface: the stdio server the CLI's `serve` and the `stratum-mcp`
// binary start.

export { CallEvents, EVENTS_META_KEY } from "./call-events";
export { serveMcp } from "./serve";
