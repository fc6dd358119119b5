// The name of the reference-compatible binary (bin/stratum-mcp.cjs sets STRATUMC_PROG to it).
export const MCP_PROGRAM = "stratum-mcp";
