// The one composition root of the Node programs (the CLI's flow commands, the MCP server process,
// `stratumc ui` and its reader worker, the benchmarks): the flow store (STRATUM_STORE: a
// postgres:// URL for the PostgreSQL store, or a directory; else the file store at STRATUM_HOME,
// default ~/.stratum), the system clock, random UUIDs, the Node file system for the file builtins,
// the Node workspace (its tools confined to STRATUM_WORKSPACE_ROOT, default the working
// directory), the process agent runner of server-side parallel dispatch and the OTLP tracer.
// Built by each program when it runs, through compose-lazily.ts (host/index.ts exports only that);
// commands that need no flows never open the store.
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import type {
  Clock,
  EngineApi,
  EngineOptions,
  FlowObserver,
  FlowRun,
  FlowState,
  FlowStore,
  IdSource,
  JudgeVerifier,
} from "../interpreter/index";
import { createEngine, pricingOverride, restoreRun, SpecCache } from "../interpreter/index";
import { type AgentRuns, createAgentRuns } from "./agent-run/agent-runs";
import { FileFlowStore, stratumHome } from "./file-store/file-store";
import { nodeFileSystem } from "./node-fs";
import { nodeWorkspace } from "./node-workspace";
import { createExecutorOwners, executorOwnersDir } from "./parallel/executor-owners";
import { maxAgentsOf } from "./parallel/max-agents";
import { createProcessParallelRunner, worktreeRootFor } from "./parallel/process-parallel-runner";
import { removeDeadWorktrees } from "./parallel/worktree-leftovers";
import { PgFlowStore } from "./pg-store/pg-store";
import { resultCacheFromEnv } from "./result-cache/result-cache-env";
import { type LocatedStore, storeAt } from "./store-at";
import { createTracer, type Tracer } from "./tracing/tracer";

/** What a program gives the composition root: where it runs and its environment. */
export interface HostOptions {
  /** The working directory: relative store locations and the workspace are taken from it. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A store to use instead of the one the environment names (the benchmarks). */
  readonly store?: LocatedStore;
  /**
   * Receives the details of unexpected engine failures (the answer says only internal_error),
   * task entries the store refused, and a STRATUM_MAX_AGENTS it ignores.
   */
  readonly logError?: (message: string) => void;
  /**
   * Receives the warnings (a setting read and ignored, a model without a price): where logError
   * goes when absent.
   */
  readonly logWarning?: (message: string) => void;
}

/** The Node engine of one program, composed from its options. */
export interface NodeHost {
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
   * The agent runs of `stratum_agent_run` (docs/reference/runtime.md §16.6): agents in the
   * workspace, at most STRATUM_MAX_AGENTS at once, each within STRATUM_AGENT_RUN_TIMEOUT.
   */
  agentRuns(): AgentRuns;
  /**
   * The OTLP trace exporter when the OTEL_* variables ask for one (docs/guides/tracing.md), else null;
   * `warn` hears its configuration problems and a collector that is down.
   */
  tracer(version: string, warn: (line: string) => void): Tracer | null;
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
  /** The verifier of judge steps (EngineOptions.judgeVerifier); default none. */
  readonly judgeVerifier?: JudgeVerifier;
}

const systemClock: Clock = {
  wallMs: () => Date.now(),
  monoMs: () => performance.now(),
};

const randomFlowIds: IdSource = { newFlowId: () => randomUUID() };

export function composeHost(options: HostOptions): NodeHost {
  const opened = options.store ?? openStore(options);
  const store = opened.store;
  const logError = options.logError;
  const logWarning = options.logWarning ?? logError;
  const specs = new SpecCache(); // flows of one process mostly share a few spec texts
  // Read once: the run-budget pricing with STRATUM_MODEL_PRICING_JSON merged over it.
  const pricing = pricingOverride(options.env.STRATUM_MODEL_PRICING_JSON);
  if (pricing.warning !== null) logWarning?.(pricing.warning);
  // Files under the home also with a database store: entries are the user's, like the reference's.
  const home = store instanceof FileFlowStore ? opened.where : stratumHome(options.env, homedir());
  const resultCache = resultCacheFromEnv(options.env, home);
  // A server on the PostgreSQL store does not follow its change notifications: every listening
  // connection makes the database run a transaction for each commit of any server (N servers, N
  // more transactions per write: docs/design/scale.md), and the registry needs none of it to be
  // correct, since it checks a held flow's change token before every call. Following would only
  // save the reload's token read when another server changed the flow.
  const follow = (wanted: boolean | undefined): boolean => wanted === true && !(store instanceof PgFlowStore);
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
    agentRuns: () =>
      createAgentRuns({
        env: options.env,
        cwd: realCwd(options.cwd),
        ...workspaceRootOption(options),
        maxRuns: maxAgentsOf(options.env).value,
      }),
    tracer: (version, warn) => createTracer({ env: options.env, version, warn }),
    api: (observer, apiOptions) =>
      createEngine({
        store,
        clock: systemClock,
        ids: randomFlowIds,
        cwd: realCwd(options.cwd),
        files: (root) => ({ root, fs: nodeFileSystem }),
        workspace: nodeWorkspace,
        ...workspaceRootOption(options),
        ...(resultCache === null ? {} : { resultCache }),
        ...(logError === undefined ? {} : { logError }),
        ...(logWarning === undefined ? {} : { logWarning }),
        pricing: pricing.table,
        ...(observer === undefined ? {} : { observer }),
        ...(apiOptions?.observing === undefined ? {} : { observing: apiOptions.observing }),
        ...(follow(apiOptions?.followStoreChanges) ? { followStoreChanges: true } : {}),
        ...(apiOptions?.judgeVerifier === undefined ? {} : { judgeVerifier: apiOptions.judgeVerifier }),
        ...(apiOptions?.serverDispatch === true ? serverDispatchOptions(options, opened, logWarning) : {}),
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
  options: HostOptions,
  opened: LocatedStore,
  logWarning: ((message: string) => void) | undefined,
): Pick<EngineOptions, "parallelRunner" | "parallelOwners" | "parallelMaxAgents"> {
  if (options.env.STRATUM_PARALLEL_DISPATCH?.trim().toLowerCase() === "off") return {};
  const home = opened.store instanceof FileFlowStore ? opened.where : stratumHome(options.env, homedir());
  void removeDeadWorktrees(worktreeRootFor(options.env), { ownersDir: executorOwnersDir(home) });
  const maxAgents = maxAgentsOf(options.env);
  if (maxAgents.warning !== null) logWarning?.(maxAgents.warning);
  return {
    parallelRunner: createProcessParallelRunner({ env: options.env }),
    parallelOwners: createExecutorOwners(executorOwnersDir(home)),
    parallelMaxAgents: maxAgents.value,
  };
}

/** The store STRATUM_STORE names, else the file store at STRATUM_HOME. */
function openStore(options: HostOptions): LocatedStore {
  const location = options.env.STRATUM_STORE;
  const fileOptions = referenceFlowFiles(options.env) ? { snapshotEveryCommit: true } : {};
  if (location !== undefined && location !== "") return storeAt(location, options.cwd, fileOptions);
  const home = stratumHome(options.env, homedir());
  return { store: new FileFlowStore(home, fileOptions), where: home };
}

/**
 * STRATUM_REFERENCE_FLOW_FILES=1: the file store keeps `<id>.json` current after every call, for
 * readers of the reference's flow file (docs/design/decisions/compatibility.md, "The flow file").
 */
function referenceFlowFiles(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.STRATUM_REFERENCE_FLOW_FILES?.trim() === "1";
}

/**
 * EngineOptions.workspaceRoot: STRATUM_WORKSPACE_ROOT (resolved against the working directory,
 * symbolic links resolved) when set and not empty, else nothing (the working directory).
 */
function workspaceRootOption(options: HostOptions): { workspaceRoot?: string } {
  const configured = options.env.STRATUM_WORKSPACE_ROOT;
  if (configured === undefined || configured === "") return {};
  return { workspaceRoot: realCwd(resolve(options.cwd, configured)) };
}

/** The program's working directory with symbolic links resolved (EngineOptions.cwd). */
function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}
