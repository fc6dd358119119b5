// The Node engine behind the CLI's flow commands (query, gate, flows prune): the file store at
// STRATUM_HOME (from the CLI host's environment, default ~/.stratum), the system clock, random
// UUIDs, the Node file system for the file builtins and the Node workspace (its tools confined to
// STRATUM_WORKSPACE_ROOT, default the working directory). Built by each flow command when it runs;
// other commands never open the store.
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { FileFlowStore, nodeFileSystem, nodeWorkspace, stratumHome } from "../host/index";
import type {
  Clock,
  FlowObserver,
  FlowRun,
  FlowState,
  FlowStore,
  IdSource,
  StratumApi,
} from "../interpreter/index";
import { createApi, restoreRun, SpecCache } from "../interpreter/index";
import type { CliHost } from "./host";

export interface FlowHost {
  /** The flows directory's parent (`$STRATUM_HOME`). */
  readonly home: string;
  readonly store: FlowStore;
  /** Deletes temporary and lock files that a crashed writer left behind (older than 30 s). */
  removeLeftovers(): Promise<number>;
  readonly clock: Clock;
  /** Restores a decoded stored flow (docs/runtime.md §14.4); null when it does not restore. */
  restore(state: FlowState): FlowRun | null;
  /**
   * A fresh engine over the same store (the programmatic API of the MCP tools); `observer` is told
   * about every committed call (the MCP server's traces, docs/tracing.md).
   */
  api(observer?: FlowObserver): StratumApi;
}

export const systemClock: Clock = {
  wallMs: () => Date.now(),
  monoMs: () => performance.now(),
};

export const randomFlowIds: IdSource = { newFlowId: () => randomUUID() };

/** `logError` receives the details of unexpected engine failures (the answer says only internal_error). */
export function createFlowHost(host: CliHost, logError?: (message: string) => void): FlowHost {
  const home = stratumHome(host.env, homedir());
  const store = new FileFlowStore(home);
  const specs = new SpecCache(); // flows of one process mostly share a few spec texts
  return {
    home,
    store,
    removeLeftovers: () => store.removeLeftovers(),
    clock: systemClock,
    restore: (state) => restoreRun(state, (specText) => specs.compile(specText), systemClock),
    api: (observer) =>
      createApi({
        store,
        clock: systemClock,
        ids: randomFlowIds,
        cwd: realCwd(host.cwd),
        files: (root) => ({ root, fs: nodeFileSystem }),
        workspace: nodeWorkspace,
        ...workspaceRootOption(host),
        ...(logError === undefined ? {} : { logError }),
        ...(observer === undefined ? {} : { observer }),
      }),
  };
}

/**
 * EngineOptions.workspaceRoot: STRATUM_WORKSPACE_ROOT (resolved against the working directory,
 * symbolic links resolved) when set and not empty, else nothing (the working directory).
 */
function workspaceRootOption(host: CliHost): { workspaceRoot?: string } {
  const configured = host.env.STRATUM_WORKSPACE_ROOT;
  if (configured === undefined || configured === "") return {};
  return { workspaceRoot: realCwd(resolve(host.cwd, configured)) };
}

/** The server's working directory with symbolic links resolved (EngineOptions.cwd). */
function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}
