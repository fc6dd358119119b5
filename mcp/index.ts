// The MCP server's public surface: the server process the CLI's `serve` and the `stratum-mcp`
// binary start (dist/mcp.cjs in the shipped CLI, loaded only when asked for).

export { CallEvents, EVENTS_META_KEY } from "./call-events";
export { serveStdio } from "./process";
export { serveMcp } from "./serve";
