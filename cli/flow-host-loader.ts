// The flow commands load the engine (file store, state machine, workspace) only when they run:
// a module reached through a dynamic import is initialised on first use, so `check` — and the
// startup snapshot it starts from — never carries the engine's module state.
import type { FlowHost } from "./flow-host";
import type { CliHost } from "./host";

export async function loadFlowHost(host: CliHost, logError?: (message: string) => void): Promise<FlowHost> {
  const { createFlowHost } = await import("./flow-host");
  return createFlowHost(host, logError);
}
