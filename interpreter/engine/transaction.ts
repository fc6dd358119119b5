// The Tx of one tool call (flow/tx.ts): private working copies of the flows the engine loaded,
// plus the flows created and detached during the call and the warnings it collected. Nothing here
// is visible outside the call until the engine commits it. A working copy is made in O(1): it
// shares the committed containers and logs its in-place changes (flow/edits.ts), so a call that
// does not commit must be rolled back, and the delta of a call is read from the log.
import type { CheckedSpec } from "../../checker/ir/types";
import type { FileAccess } from "../../stdlib/files";
import { cloneRun } from "../flow/clone";
import type { Clock, IdSource } from "../flow/ports";
import type { ResultCacheEntry, ResultCacheStore } from "../flow/result-cache";
import type { FlowRun } from "../flow/run";
import type { BudgetEnvironment, CheckedText, Tx, TxFact } from "../flow/tx";
import type { FlowDelta } from "../store/delta";
import { editDelta } from "./edit-delta";

export interface TxEnvironment {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly serverCwd: string;
  readonly files: (root: string) => FileAccess | null;
  readonly check: (specText: string) => CheckedText;
  /** Default: the built-in pricing, no warnings (flow/tx.ts). */
  readonly budget?: BudgetEnvironment;
  /** The result cache (EngineOptions.resultCache); default none. */
  readonly results?: ResultCacheStore | null;
}

const NONE: ReadonlySet<string> = new Set();
const NOTHING: readonly never[] = [];

export class EngineTx implements Tx {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly serverCwd: string;
  readonly budget?: BudgetEnvironment;
  /** Flow id → working copy (touched or created). */
  readonly working = new Map<string, FlowRun>();
  // The sets and lists below are made when the call first adds to them: most calls create,
  // detach, warn, note and cache nothing, and a transaction is on every transition's path.
  private createdIds: Set<string> | null = null;
  private detachedIds: Set<string> | null = null;
  private warningList: string[] | null = null;
  private factList: TxFact[] | null = null;
  private cachedList: ResultCacheEntry[] | null = null;
  readonly results: ResultCacheStore | null;

  /** `loaded`: the committed runs the engine loaded for this call (never mutated here). */
  constructor(
    private readonly env: TxEnvironment,
    readonly loaded: ReadonlyMap<string, FlowRun>,
  ) {
    this.clock = env.clock;
    this.ids = env.ids;
    this.serverCwd = env.serverCwd;
    if (env.budget !== undefined) this.budget = env.budget;
    const store = env.results ?? null;
    this.results =
      store === null ? null : { get: (key) => store.get(key), put: (entry) => void this.cache(entry) };
  }

  get created(): ReadonlySet<string> {
    return this.createdIds ?? NONE;
  }

  get detached(): ReadonlySet<string> {
    return this.detachedIds ?? NONE;
  }

  get warnings(): readonly string[] {
    return this.warningList ?? NOTHING;
  }

  /** The typed facts of the call, for its events (flow/tx.ts TxFact). */
  get facts(): readonly TxFact[] {
    return this.factList ?? NOTHING;
  }

  /** Outputs the call stores in the result cache, handed to the store once the call commits. */
  get cached(): readonly ResultCacheEntry[] {
    return this.cachedList ?? NOTHING;
  }

  files(cwd: string): FileAccess | null {
    return this.env.files(cwd);
  }

  read(flowId: string): FlowRun | null {
    return this.working.get(flowId) ?? this.loaded.get(flowId) ?? null;
  }

  edit(flowId: string): FlowRun | null {
    const copy = this.working.get(flowId);
    if (copy !== undefined) return copy;
    const committed = this.loaded.get(flowId);
    if (committed === undefined) return null;
    const run = cloneRun(committed);
    this.working.set(flowId, run);
    return run;
  }

  /**
   * What the call changed in a flow it edited, from the state it had when the call began, in
   * O(the change); null for a flow created in this call or not edited. Call it after commitTx set
   * the working state's revision and status, and before `close` or `rollback`.
   */
  deltaOf(flowId: string): FlowDelta | null {
    const run = this.working.get(flowId);
    const committed = this.loaded.get(flowId);
    if (run === undefined || committed === undefined || run.edits === undefined || this.created.has(flowId))
      return null;
    return editDelta(committed.state, run.state, run.edits);
  }

  /** Undoes every in-place change of the committed flows: they are exactly as before the call. */
  rollback(): void {
    for (const run of this.working.values()) run.edits?.rollback();
  }

  /** After a commit: the working copies are the committed runs now; their logs are dropped. */
  close(): void {
    for (const run of this.working.values()) run.edits?.close();
  }

  create(run: FlowRun): void {
    this.working.set(run.state.flow_id, run);
    this.createdIds ??= new Set();
    this.createdIds.add(run.state.flow_id);
  }

  detach(flowId: string): void {
    this.detachedIds ??= new Set();
    this.detachedIds.add(flowId);
  }

  warn(message: string): void {
    this.warningList ??= [];
    this.warningList.push(message);
  }

  note(fact: TxFact): void {
    this.factList ??= [];
    this.factList.push(fact);
  }

  private cache(entry: ResultCacheEntry): void {
    this.cachedList ??= [];
    this.cachedList.push(entry);
  }

  compile(specText: string): CheckedSpec | null {
    return this.env.check(specText).ir;
  }

  check(specText: string): CheckedText {
    return this.env.check(specText);
  }
}
