// The composition root as the programs reach it (host/index.ts): the CLI's flow commands, the MCP
// server process and `stratumc ui` with its reader worker. The wiring (compose.ts) is reached
// through a dynamic import, and a module reached that way is initialised on first use, so `check`
// — and the startup snapshot it starts from — never initialises it.
import type { HostOptions, NodeHost } from "./compose";

export async function composeHostLazily(options: HostOptions): Promise<NodeHost> {
  const { composeHost } = await import("./compose");
  return composeHost(options);
}
