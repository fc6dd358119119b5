// What the engine (the programmatic API's implementation) is built from: every I/O is injected.
import type { FileAccess } from "../../stdlib/files";
import type { JudgeVerifier } from "../flow/judge/t2";
import type { ParallelAgentRunner } from "../flow/parallel-runner";
import type { Clock, IdSource } from "../flow/ports";
import type { PricingTable } from "../flow/pricing";
import type { ResultCacheStore } from "../flow/result-cache";
import type { FlowStore } from "../store/store";
import type { WorkspaceFs } from "../workspace/workspace";
import type { FlowObserver } from "./observer";
import type { ParallelExecutorOwners } from "./parallel-owners";
import type { RegistryLimits } from "./registry";
import type { SpecCache } from "./spec-cache";

export interface EngineOptions {
  readonly store: FlowStore;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** The server's working directory (absolute, symbolic links resolved). */
  readonly cwd: string;
  /** File access for the file builtins of a flow whose working root is `root` (docs/reference/language.md §10.9). */
  readonly files: (root: string) => FileAccess | null;
  /** Project files for list_workflows, compile_speckit and draft_pipeline. */
  readonly workspace: WorkspaceFs;
  /**
   * The directory those three tools are confined to (absolute, symbolic links resolved); default
   * `cwd`. The MCP server takes it from STRATUM_WORKSPACE_ROOT.
   */
  readonly workspaceRoot?: string;
  /** How many flows stay in memory (default `DEFAULT_REGISTRY_LIMITS`); the rest are reloaded. */
  readonly registryLimits?: RegistryLimits;
  /** Where details of unexpected failures go (the server's standard error); default: nowhere. */
  readonly logError?: (message: string) => void;
  /**
   * Where the engine's warnings go (a model run budgets cannot price); default: nowhere. The Node
   * host sends them where logError goes.
   */
  readonly logWarning?: (message: string) => void;
  /**
   * Told about every committed call (observer.ts; the MCP server's OTLP traces, docs/guides/tracing.md).
   * Default: none, and then nothing is derived.
   */
  readonly observer?: FlowObserver;
  /**
   * With an observer: whether the call about to run is observed (checked at its start). Lets a
   * server that hands events only to the calls that ask for them (the MCP `_meta` key, mcp/)
   * keep the cost of building events off the others. Default: every call is.
   */
  readonly observing?: () => boolean;
  /**
   * Listen to the store's change notifications (FlowStore.watch, when it has them) and forget the
   * flows other processes commit as soon as they do, instead of at their next use (a long-running
   * server over a shared store). The store's `close` stops the listening. Default false.
   */
  readonly followStoreChanges?: boolean;
  /**
   * Tests: check every call's in-place edits (verify-edits.ts) against full copies of the flows it
   * loaded; a mismatch rejects the call with an EditVerificationError. Default false (the copies
   * cost O(flow length) per call).
   */
  readonly verifyEdits?: boolean;
  /**
   * The checked specs by text (default: a cache of the engine's own). The fuzzer shares one
   * between the many engines of a session, holding the check it already made, so no replay
   * checks the spec again.
   */
  readonly specs?: SpecCache;
  /**
   * USD per million tokens by model for run budgets (docs/reference/runtime.md §11.4); default the
   * built-in table (flow/pricing.ts). The Node host merges STRATUM_MODEL_PRICING_JSON over it.
   */
  readonly pricing?: PricingTable;
  /**
   * Runs the agents of server-side parallel dispatch (stratum_parallel_start). Default none:
   * stratum_parallel_start answers `server_dispatch_unavailable` (consumer-side dispatch with
   * stratum_parallel_done always works).
   */
  readonly parallelRunner?: ParallelAgentRunner;
  /**
   * Runs the verifier agent of a judge step's verified and judged predicates
   * (docs/reference/runtime.md §25.3). Default none: stratum_judge answers `verifier_unavailable` for them.
   */
  readonly judgeVerifier?: JudgeVerifier;
  /**
   * Records which process runs a flow's parallel executor (parallel-owners.ts), so that the task
   * entries a dead server left unsettled are marked interrupted (docs/reference/runtime.md §23.11). Default
   * none: they are never marked.
   */
  readonly parallelOwners?: ParallelExecutorOwners;
  /**
   * The most agents the executor of one parallel step runs at once: a step's `max_concurrent`
   * above it (and a quorum's, race's or debate's members) is clamped to it. Default: no cap. The
   * MCP server sets it from STRATUM_MAX_AGENTS, else the number of CPUs.
   */
  readonly parallelMaxAgents?: number;
  /**
   * The result cache of cached compute steps (docs/reference/runtime.md §25.4). Default none: no
   * step is ever answered from a cache. The MCP server keeps it under STRATUM_HOME/cache/results.
   */
  readonly resultCache?: ResultCacheStore;
  /** The parallel executor's timers (task_timeout); default setTimeout. Tests inject fake time. */
  readonly parallelTimer?: (ms: number, fn: () => void) => () => void;
}
