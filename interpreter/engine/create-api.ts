// The programmatic API over the state machine: queue, registry, loading and committing (A1).
// Every flow tool is a pure function `(tx, args) => Response` (flow/); this module runs it inside
// a transaction over working copies, commits iff the response says so (docs/reference/runtime.md §15), and maps store
// conflicts and unexpected failures to their error responses. Data arguments (inputs, results, a
// draft) are trusted to be within the limits of limits.ts: the boundary they came through checked
// them (api.ts).

import { withFields } from "../../stdlib/values/own-property";
import type {
  AgentRunChargeArgs,
  AgentRunCheckArgs,
  FlowArgs,
  GateResolveArgs,
  IterationAbortArgs,
  IterationReportArgs,
  JudgeArgs,
  LabelArgs,
  ParallelDoneArgs,
  PlanArgs,
  SkipStepArgs,
  StepArgs,
  StepDoneArgs,
  StratumApi,
} from "../api";
import { commits, ExecutionFailure, executionError, toolError } from "../base/tool-errors";
import { agentRunCharge, agentRunCheck } from "../flow/agent-run-budget";
import { audit } from "../flow/audit";
import { commitCheckpoint, revertCheckpoint } from "../flow/checkpoints";
import { gateContext } from "../flow/gate-context";
import { gateResolve } from "../flow/gates";
import { iterationAbort, iterationStart } from "../flow/iterations";
import { iterationReport } from "../flow/iterations-report";
import { judge } from "../flow/judge/tool";
import { pollCancelsRest } from "../flow/kinds/index";
import { parallelDone } from "../flow/parallel-done";
import { parallelAdvance, parallelPoll } from "../flow/parallel-poll";
import { plan } from "../flow/plan";
import { BUILT_IN_PRICING, baseModel, type PricingTable } from "../flow/pricing";
import { resume } from "../flow/resume";
import type { FlowRun } from "../flow/run";
import { skipStep } from "../flow/skip";
import { stepDone } from "../flow/step-done";
import { checkTimeouts } from "../flow/timeouts";
import type { BudgetEnvironment, Tx } from "../flow/tx";
import { validate } from "../flow/validate";
import { FlowTooLargeError } from "../store/codec";
import { isSafeFlowId } from "../store/flow-id";
import {
  FlowCorruptError,
  StaleStateError,
  StoreLockedError,
  StoreUnavailableError,
  StoreUnusableError,
  StoreUnwritableError,
} from "../store/store";
import type { Response } from "../wire/wire";
import { commitTx } from "./commit";
import { judgeWithVerifier } from "./judge-call";
import { type CallInfo, observedEvents, type Position, positionsOf } from "./observe";
import type { EngineOptions } from "./options";
import { parallelDispatch } from "./parallel-dispatch";
import { SerialQueue } from "./queue";
import { Registry, type RegistrySnapshot } from "./registry";
import { SpecCache } from "./spec-cache";
import { EngineTx, type TxEnvironment } from "./transaction";
import { EditVerifier } from "./verify-edits";
import { workspaceTools } from "./workspace-tools";

type ToolFn<A> = (tx: Tx, args: A) => Response;

const NOT_BUDGETED: Response = { status: "ok" };
/** What a call on no flow (`stratum_plan`) loads: one shared empty map, which no call changes. */
const NO_FLOWS: ReadonlyMap<string, FlowRun> = new Map();

/** The tools whose response is the answer to a reported result (the observer reads its violations). */
const REPORTS_RESULT: ReadonlySet<unknown> = new Set<unknown>([stepDone, parallelDone, parallelAdvance]);

/** The API plus test hooks of the conformance runner (test/conformance/recorded/README.md §2.1). */
export interface EngineApi extends StratumApi {
  /** Forgets every in-memory flow, as a server restart would. */
  forgetAll(): Promise<void>;
  /** Resolves when every parallel executor of this engine has finished (tests). */
  parallelSettled(): Promise<void>;
  /**
   * Ends every parallel executor (a server's shutdown, docs/reference/runtime.md §23.11): agents interrupted,
   * unsettled tasks recorded as failed, within `graceMs` (default 8 s) plus the writes.
   */
  parallelShutdown(graceMs?: number): Promise<void>;
  /**
   * The flows `flowIds` as this engine holds them in memory, copied; `restoreFlows` holds them
   * again. The fuzzer's exhaustive exploration continues a path from a decision's state (with its
   * store put back beside); a flow not held, or whose store token differs, is reloaded instead.
   * Only between calls.
   */
  snapshotFlows(flowIds: Iterable<string>): RegistrySnapshot;
  restoreFlows(snapshot: RegistrySnapshot): void;
  /**
   * Forgets the flows `flowIds` held in memory, for an owner that removed them from its store too
   * (the fuzzer between runs). Only between calls.
   */
  forgetFlows(flowIds: Iterable<string>): void;
}

export function createApi(options: EngineOptions): StratumApi {
  return createEngine(options);
}

export function createEngine(options: EngineOptions): EngineApi {
  const queue = new SerialQueue();
  const specs = options.specs ?? new SpecCache();
  const compile = (text: string) => specs.compile(text);
  const registry = new Registry(options.store, compile, options.clock, options.registryLimits);
  if (options.followStoreChanges === true) options.store.watch?.((change) => registry.invalidate(change));
  const logError = options.logError ?? (() => undefined);
  const env: TxEnvironment = {
    clock: options.clock,
    ids: options.ids,
    serverCwd: options.cwd,
    files: options.files,
    check: (text: string) => specs.check(text),
    budget: budgetEnvironment(options.pricing ?? BUILT_IN_PRICING, options.logWarning ?? (() => undefined)),
    results: options.resultCache ?? null,
  };

  function internalError(e: unknown): Response {
    logError(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return executionError("An unexpected error occurred.", "internal_error");
  }

  /**
   * The answer for a store failure that is not a bug: the store cannot be written
   * (`store_unwritable`, path and OS reason) or a flow file is damaged (`flow_corrupt`, file and
   * problem) or a state would not fit a flow file (`flow_too_large`: nested deeper than its reader
   * reads) or a database store cannot be used as it is (`store_unusable`: a schema newer than this
   * program, a role without a privilege it needs). Tool-error shape, as `state_locked`; null for
   * anything else.
   */
  function storeFailure(e: unknown): Response | null {
    if (e instanceof StoreUnwritableError) {
      return toolError("store_unwritable", e.message, { path: e.path, reason: e.code });
    }
    if (e instanceof StoreUnavailableError) {
      const message = e.unknownOutcome
        ? e.message
        : `${e.message}; the call was not applied — retry it when the store is back`;
      return toolError("store_unavailable", message, {
        store: e.where,
        reason: e.reason,
        ...(e.unknownOutcome ? { outcome: "unknown" } : {}),
      });
    }
    if (e instanceof StoreUnusableError) return toolError("store_unusable", e.message, { store: e.where });
    if (e instanceof FlowCorruptError) return toolError("flow_corrupt", e.message, { file: e.file });
    if (e instanceof FlowTooLargeError) return toolError("flow_too_large", e.message);
    return null;
  }

  /** What a committed call stored in the result cache; a store that fails loses only the entry. */
  function storeCachedResults(tx: EngineTx): void {
    const store = options.resultCache;
    if (store === undefined) return;
    for (const entry of tx.cached) {
      try {
        store.put(entry);
      } catch (e) {
        logError(`result cache: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  const observer = options.observer;
  const observing = options.observing ?? (() => true);
  /** Hands the events of a committed call to the observer; nothing it does can fail the call. */
  function observe(
    tx: EngineTx,
    before: ReadonlyMap<string, Position>,
    call: CallInfo,
    response: Response,
  ): void {
    if (observer === undefined) return;
    try {
      const events = observedEvents(tx, before, call, response, {
        clock: options.clock,
        remembered: (id) => registry.peek(id),
      });
      if (events.length > 0) observer(events);
    } catch (e) {
      logError(`observer: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }

  /**
   * Runs one tool function in a transaction on `flowId` (and its active children), or on no flow.
   * On a store that answers at once (FlowStore.immediate) the call settles synchronously and its
   * response is a value; otherwise a promise. Never throws.
   */
  function transact<A>(flowId: string | null, fn: ToolFn<A>, args: A): Response | Promise<Response> {
    let loaded: ReadonlyMap<string, FlowRun> | Promise<ReadonlyMap<string, FlowRun>>;
    try {
      loaded = flowId === null ? NO_FLOWS : registry.loadChain(flowId);
    } catch (e) {
      return storeFailure(e) ?? internalError(e);
    }
    if (loaded instanceof Promise) {
      return loaded.then(
        (l) => runTx(l, flowId, fn, args),
        (e: unknown) => storeFailure(e) ?? internalError(e),
      );
    }
    return runTx(loaded, flowId, fn, args);
  }

  /** The call on the flows loaded for it: its answer, and its commit when the answer commits. */
  function runTx<A>(
    loaded: ReadonlyMap<string, FlowRun>,
    flowId: string | null,
    fn: ToolFn<A>,
    args: A,
  ): Response | Promise<Response> {
    const tx = new EngineTx(env, loaded);
    const before = observer === undefined || !observing() ? null : positionsOf(loaded);
    const verifier = options.verifyEdits === true ? new EditVerifier(loaded) : null;
    let response: Response;
    try {
      response = fn(tx, args);
    } catch (e) {
      rollback(tx, verifier);
      if (e instanceof ExecutionFailure) {
        return withWarnings(executionError(e.message, "execution_error", e.details), tx);
      }
      return internalError(e);
    }
    if (!commits(response)) {
      rollback(tx, verifier);
      return withWarnings(response, tx);
    }
    let commit: void | Promise<void>;
    try {
      commit = commitTx(tx, options.store, registry);
    } catch (e) {
      return commitFailed(e, tx, verifier);
    }
    const done = (): Response => {
      verifier?.committed(tx);
      tx.close();
      storeCachedResults(tx);
      if (before !== null)
        observe(tx, before, { resultFor: REPORTS_RESULT.has(fn) ? flowId : null }, response);
      return withWarnings(response, tx);
    };
    return commit instanceof Promise
      ? commit.then(done, (e: unknown) => commitFailed(e, tx, verifier))
      : done();
  }

  // Working copies change the committed containers in place: a call that does not commit
  // undoes its changes before it answers.
  function rollback(tx: EngineTx, verifier: EditVerifier | null): void {
    tx.rollback();
    verifier?.rolledBack(tx);
  }

  /** The answer of a call whose commit the store refused (or that failed before the store was asked). */
  function commitFailed(e: unknown, tx: EngineTx, verifier: EditVerifier | null): Response {
    rollback(tx, verifier);
    if (e instanceof StoreLockedError) return toolError("state_locked", e.message);
    const failure = storeFailure(e);
    if (failure !== null) return failure;
    if (e instanceof StaleStateError) {
      registry.drop(e.flowId); // the retry reloads from the store
      return toolError("stale_state", e.message);
    }
    return internalError(e);
  }

  function flowTool<A extends FlowArgs>(fn: ToolFn<A>): (args: A) => Promise<Response> {
    return (args) => queue.run(() => transact(args.flow_id, fn, args));
  }

  const workspace = workspaceTools(options);
  const parallel = parallelDispatch(
    options,
    async (flowId, fn) => transact(flowId, (tx) => fn(tx), undefined),
    (fn) => queue.run(fn),
  );

  return {
    // The calls that touch no flow are answered at once, never behind a flow call that waits for
    // the store (a database that stops answering would otherwise hold them for its timeouts).
    validate: async (args) => guarded(() => validate(args), internalError),
    plan: (args: PlanArgs) => queue.run(() => transact(null, plan, args)),
    stepDone: flowTool<StepDoneArgs>(stepDone),
    audit: flowTool<FlowArgs>(audit),
    gateResolve: flowTool<GateResolveArgs>(gateResolve),
    checkTimeouts: flowTool<FlowArgs>(checkTimeouts),
    gateContext: flowTool<StepArgs>(gateContext),
    skipStep: flowTool<SkipStepArgs>(skipStep),
    commit: flowTool<LabelArgs>(commitCheckpoint),
    revert: flowTool<LabelArgs>(revertCheckpoint),
    iterationStart: flowTool<StepArgs>(iterationStart),
    iterationReport: flowTool<IterationReportArgs>(iterationReport),
    iterationAbort: flowTool<IterationAbortArgs>(iterationAbort),
    resume: flowTool<FlowArgs>(resume),
    parallelDone: flowTool<ParallelDoneArgs>(parallelDone),
    judge:
      options.judgeVerifier === undefined
        ? flowTool<JudgeArgs>((tx, args) => judge(tx, args))
        : judgeWithVerifier(options.judgeVerifier, options.clock, (fn, args) =>
            queue.run(() => transact(args.flow_id, fn, args)),
          ),
    parallelStart: (args) => queue.run(() => parallel.start(args)),
    // Entries a dead server left unsettled are marked interrupted first (parallel-dispatch.ts).
    parallelPoll: (args) =>
      queue.run(async () => {
        await parallel.recover(args.flow_id);
        const r = await transact(args.flow_id, parallelPoll, args);
        // A step its poll ended with tasks still running (a won race): they stop now (docs/reference/runtime.md §23.16).
        if (pollCancelsRest(r)) parallel.cancelRest(args.flow_id, args.step_id);
        return r;
      }),
    parallelAdvance: (args) =>
      queue.run(async () => {
        await parallel.recover(args.flow_id);
        return transact(args.flow_id, parallelAdvance, args);
      }),
    listWorkflows: async (args) => guarded(() => workspace.listWorkflows(args), internalError),
    compileSpeckit: async (args) => guarded(() => workspace.compileSpeckit(args), internalError),
    draftPipeline: async (args) => guarded(() => workspace.draftPipeline(args), internalError),
    // A correlation id that cannot be a flow id names no flow: not budgeted, nothing loaded.
    agentRunCheck: (args: AgentRunCheckArgs) =>
      isSafeFlowId(args.correlation_id)
        ? queue.run(() => transact(args.correlation_id, agentRunCheck, args))
        : Promise.resolve(NOT_BUDGETED),
    agentRunCharge: (args: AgentRunChargeArgs) =>
      isSafeFlowId(args.correlation_id)
        ? queue.run(() => transact(args.correlation_id, agentRunCharge, args))
        : Promise.resolve(NOT_BUDGETED),
    parallelSettled: () => parallel.settled(),
    parallelShutdown: (graceMs) => parallel.shutdown(graceMs),
    forgetAll: () =>
      queue.run(async () => {
        registry.clear();
      }),
    snapshotFlows: (flowIds) => registry.snapshot(flowIds),
    restoreFlows: (snapshot) => registry.restore(snapshot),
    forgetFlows: (flowIds) => registry.forget(flowIds),
  };
}

/** The pricing of run budgets; a model the table lacks is named once per engine, as the reference warns once per model. */
function budgetEnvironment(pricing: PricingTable, log: (message: string) => void): BudgetEnvironment {
  const named = new Set<string>();
  return {
    pricing,
    unpriced(model) {
      const base = baseModel(model);
      if (base === "" || named.has(base)) return;
      named.add(base);
      log(
        `run budget: no price for model '${base}'; the usd cap counts its cost as $0 (set STRATUM_MODEL_PRICING_JSON to add it)`,
      );
    },
  };
}

function guarded(fn: () => Response, onError: (e: unknown) => Response): Response {
  try {
    return fn();
  } catch (e) {
    return onError(e);
  }
}

/** The call's warnings as the last key `warnings`, present only when non-empty (docs/reference/language.md §3.1, docs/reference/runtime.md §16.4). */
function withWarnings(response: Response, tx: EngineTx): Response {
  return tx.warnings.length === 0 ? response : withFields(response, { warnings: [...tx.warnings] });
}
