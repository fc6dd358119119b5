// The engine as the interpreter tests build it: a store (MemoryStore unless given), a manual clock,
// sequential UUID v4 ids, the Node file system for the file builtins and the Node workspace.
// `restart()` is a server restart: a new API instance over the same store, clock and ids, with
// every in-memory flow discarded.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { nodeFileSystem } from "../../../host/node-fs";
import { nodeWorkspace } from "../../../host/node-workspace";
import type { StratumApi } from "../../../interpreter/api";
import { createApi } from "../../../interpreter/engine/create-api";
import type { RegistryLimits } from "../../../interpreter/engine/registry";
import type { JudgeVerifier } from "../../../interpreter/flow/judge/t2";
import type { PricingTable } from "../../../interpreter/flow/pricing";
import type { ResultCacheStore } from "../../../interpreter/flow/result-cache";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type { FlowStore } from "../../../interpreter/store/store";
import type { WorkspaceFs } from "../../../interpreter/workspace/workspace";
import { ManualClock } from "./manual-clock";
import { SequentialIds } from "./sequential-ids";

export interface TestApiOptions {
  readonly cwd: string;
  readonly store?: FlowStore;
  readonly clock?: ManualClock;
  readonly ids?: SequentialIds;
  readonly workspace?: WorkspaceFs;
  readonly registryLimits?: RegistryLimits;
  /** The run-budget pricing, as host/compose.ts passes it (pricingOverride of the environment). */
  readonly pricing?: PricingTable;
  readonly resultCache?: ResultCacheStore;
  /** The verifier of judge steps (default none: verifier_unavailable). */
  readonly judgeVerifier?: JudgeVerifier;
}

export interface TestApi {
  /** The current API instance (replaced by `restart`). */
  readonly api: StratumApi;
  readonly store: FlowStore;
  readonly clock: ManualClock;
  readonly ids: SequentialIds;
  readonly cwd: string;
  /** What the engine reported through `logError` (unexpected failures), over all instances. */
  readonly loggedErrors: readonly string[];
  /** What the engine reported through `logWarning`, over all instances. */
  readonly loggedWarnings: readonly string[];
  /** Discards every in-memory flow: a new API instance over the same store. */
  restart(): StratumApi;
  /** Another API instance over the same store without replacing `api` (a second "process"). */
  fresh(): StratumApi;
}

export function makeTestApi(options: TestApiOptions): TestApi {
  const store = options.store ?? new MemoryStore();
  const clock = options.clock ?? new ManualClock();
  const ids = options.ids ?? new SequentialIds();
  const workspace = options.workspace ?? nodeWorkspace;
  const loggedErrors: string[] = [];
  const loggedWarnings: string[] = [];
  const build = (): StratumApi =>
    createApi({
      store,
      clock,
      ids,
      cwd: options.cwd,
      files: (root) => ({ root, fs: nodeFileSystem }),
      workspace,
      logError: (message) => loggedErrors.push(message),
      logWarning: (message) => loggedWarnings.push(message),
      verifyEdits: true,
      ...(options.registryLimits === undefined ? {} : { registryLimits: options.registryLimits }),
      ...(options.pricing === undefined ? {} : { pricing: options.pricing }),
      ...(options.resultCache === undefined ? {} : { resultCache: options.resultCache }),
      ...(options.judgeVerifier === undefined ? {} : { judgeVerifier: options.judgeVerifier }),
    });
  let api = build();
  return {
    get api() {
      return api;
    },
    store,
    clock,
    ids,
    cwd: options.cwd,
    loggedErrors,
    loggedWarnings,
    restart() {
      api = build();
      return api;
    },
    fresh: build,
  };
}

/** A FileFlowStore in a fresh temporary STRATUM_HOME; `dispose` removes the directory. */
export function tempFileStore(): { readonly store: FileFlowStore; readonly home: string; dispose(): void } {
  const home = mkdtempSync(join(tmpdir(), "stratum-home-"));
  return {
    store: new FileFlowStore(home),
    home,
    dispose: () => rmSync(home, { recursive: true, force: true }),
  };
}
