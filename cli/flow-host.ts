// The Node engine behind the CLI's flow commands (query, gate, flows prune, serve, ui): the flow
// store (STRATUM_STORE: a postgres:// URL for the PostgreSQL store, or a directory; else the file
// store at STRATUM_HOME, default ~/.stratum), the system clock, random
// UUIDs, the Node file system for the file builtins and the Node workspace (its tools confined to
// STRATUM_WORKSPACE_ROOT, default the working directory). Built by each flow command when it runs;
// other commands never open the store.
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import {
  checkStoreLocation,
  createExecutorOwners,
  createProcessParallelRunner,
  executorOwnersDir,
  FileFlowStore,
  isPostgresUrl,
  maxAgentsOf,
  nodeFileSystem,
  nodeWorkspace,
  PgFlowStore,
  removeDeadWorktrees,
  stratumHome,
  worktreeRootFor,
} from "../host/index";
import type {
  Clock,
  EngineApi,
  EngineOptions,
  FlowObserver,
  FlowRun,
  FlowState,
  FlowStore,
  IdSource,
} from "../interpreter/index";
import { createEngine, restoreRun, SpecCache } from "../interpreter/index";
import type { CliHost } from "./host";

export interface FlowHost {
  /** Where the flows are, for messages: `$STRATUM_HOME`, or the store's URL without its password. */
  readonly where: string;
  readonly store: FlowStore;
  /** The folder whose files change with every commit (the file store's), else null. */
  readonly watchDir: string | null;
  /** Deletes temporary and lock files that a crashed writer left behind (older than 30 s). */
  removeLeftovers(): Promise<number>;
  readonly clock: Clock;
  /** Restores a decoded stored flow (docs/reference/runtime.md §14.4); null when it does not restore. */
  restore(state: FlowState): FlowRun | null;
  /**
   * A fresh engine over the same store (the programmatic API of the MCP tools); `observer` is told
   * about every committed call (the MCP server's traces, docs/guides/tracing.md). With `serverDispatch`
   * (the MCP server) it runs server-side parallel tasks as agent processes (docs/reference/runtime.md §23.6)
   * unless `STRATUM_PARALLEL_DISPATCH=off`, and keeps executor owner records beside the store.
   */
  api(observer?: FlowObserver, options?: ApiOptions): EngineApi;
  /**
   * Connects a database store and brings its schema up to date, so a server reports a problem at
   * start (rejects with StoreUnavailableError or SchemaTooNewError); nothing to do for files.
   */
  open(): Promise<void>;
  /** Closes the store's connections (a server's last step). */
  close(): Promise<void>;
}

interface ApiOptions {
  readonly followStoreChanges?: boolean;
  readonly serverDispatch?: boolean;
  /** Which calls the observer sees (EngineOptions.observing); default every call. */
  readonly observing?: () => boolean;
}

const systemClock: Clock = {
  wallMs: () => Date.now(),
  monoMs: () => performance.now(),
};

const randomFlowIds: IdSource = { newFlowId: () => randomUUID() };

/**
 * `logError` receives the details of unexpected engine failures (the answer says only internal_error),
 * task entries the store refused, and a STRATUM_MAX_AGENTS it ignores.
 */
export function createFlowHost(host: CliHost, logError?: (message: string) => void): FlowHost {
  const opened = openStore(host);
  const store = opened.store;
  const specs = new SpecCache(); // flows of one process mostly share a few spec texts
  return {
    where: opened.where,
    store,
    watchDir: store instanceof FileFlowStore ? store.flowsDir : null,
    removeLeftovers: async () => (store instanceof FileFlowStore ? store.removeLeftovers() : 0),
    clock: systemClock,
    restore: (state) => restoreRun(state, (specText) => specs.compile(specText), systemClock),
    open: async () => {
      await store.open?.();
    },
    close: async () => {
      await store.close?.();
    },
    api: (observer, apiOptions) =>
      createEngine({
        store,
        clock: systemClock,
        ids: randomFlowIds,
        cwd: realCwd(host.cwd),
        files: (root) => ({ root, fs: nodeFileSystem }),
        workspace: nodeWorkspace,
        ...workspaceRootOption(host),
        ...(logError === undefined ? {} : { logError }),
        ...(observer === undefined ? {} : { observer }),
        ...(apiOptions?.observing === undefined ? {} : { observing: apiOptions.observing }),
        ...(apiOptions?.followStoreChanges === true ? { followStoreChanges: true } : {}),
        ...(apiOptions?.serverDispatch === true ? serverDispatchOptions(host, opened, logError) : {}),
      }),
  };
}

/**
 * The process agent runner (worktrees under `$STRATUM_HOME/worktrees`), the executor owner
 * records — beside a file store's flows, else under `$STRATUM_HOME` (a database store: servers of
 * other hosts keep their own records and never mark each other's tasks) — and the cap on agents
 * at once per step (STRATUM_MAX_AGENTS, else the number of CPUs; a bad value is told and ignored).
 * The worktrees that dead servers left there are moved aside before any task runs, and deleted in
 * the background.
 */
function serverDispatchOptions(
  host: CliHost,
  opened: LocatedStore,
  logError: ((message: string) => void) | undefined,
): Pick<EngineOptions, "parallelRunner" | "parallelOwners" | "parallelMaxAgents"> {
  if (host.env.STRATUM_PARALLEL_DISPATCH?.trim().toLowerCase() === "off") return {};
  const home = opened.store instanceof FileFlowStore ? opened.where : stratumHome(host.env, homedir());
  void removeDeadWorktrees(worktreeRootFor(host.env), { ownersDir: executorOwnersDir(home) });
  const maxAgents = maxAgentsOf(host.env);
  if (maxAgents.warning !== null) logError?.(maxAgents.warning);
  return {
    parallelRunner: createProcessParallelRunner({ env: host.env }),
    parallelOwners: createExecutorOwners(executorOwnersDir(home)),
    parallelMaxAgents: maxAgents.value,
  };
}

/** A store with where it is, for messages (a directory, or a URL without its password). */
export interface LocatedStore {
  readonly store: FlowStore;
  readonly where: string;
}

/** The store STRATUM_STORE names, else the file store at STRATUM_HOME. */
function openStore(host: CliHost): LocatedStore {
  const location = host.env.STRATUM_STORE;
  if (location !== undefined && location !== "") return storeAt(location, host.cwd);
  const home = stratumHome(host.env, homedir());
  return { store: new FileFlowStore(home), where: home };
}

/**
 * The store a location names: a postgres:// URL (connected on first use), or a directory used as
 * STRATUM_HOME (relative to `cwd`).
 */
export function storeAt(location: string, cwd: string): LocatedStore {
  checkStoreLocation(location);
  if (isPostgresUrl(location)) {
    const store = new PgFlowStore(location);
    return { store, where: store.url.display };
  }
  const home = resolve(cwd, location);
  return { store: new FileFlowStore(home), where: home };
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
