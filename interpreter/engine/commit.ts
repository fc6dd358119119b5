// Committing a call (docs/reference/runtime.md §14.2, docs/reference/runtime.md §15): every touched or created flow gets its derived
// status and the next revision, all writes and deletions go to the store as one batch (children
// before parents), and only then does the registry take the new copies. A flow that existed is
// written as a delta from its committed state (O(change), docs/design/durable-store.md); its full text
// is encoded only when the store asks for it (a snapshot) or the flow is new. A store that keeps
// states (the memory store, FlowStore.keepsStates) is given the state and the change as values and
// nothing is encoded: they are measured instead (the codec's depth limit, the registry's weight). A flow the call
// edited without changing anything (a `stratum_resume` poll on a flow waiting at its gate) is not
// written: its revision stays, so a poll never makes another process's write stale.
import type { FlowRun } from "../flow/run";
import { inProgress, persistedStatus } from "../flow/status";
import { encodeFlowState, measureFlowState } from "../store/codec";
import { encodeDelta, type FlowDelta, measureDelta } from "../store/delta";
import type {
  ChangeToken,
  FlowStore,
  StoreBatch,
  StoreDelete,
  StoreWrite,
  WrittenState,
} from "../store/store";
import type { Registry } from "./registry";
import type { EngineTx } from "./transaction";

/**
 * Commits the call: at once on a store that answers at once (FlowStore.immediate), else the
 * returned promise settles when the store has. Throws (or rejects with) the store's error.
 */
export function commitTx(tx: EngineTx, store: FlowStore, registry: Registry): void | Promise<void> {
  const writes: Write[] = [];
  let deletes: StoreDelete[] | null = null;
  let unchanged: FlowRun[] | null = null;
  for (const run of childrenFirst(tx.working)) {
    const id = run.state.flow_id;
    const created = tx.created.has(id);
    if (tx.detached.has(id)) {
      if (created) continue; // created and detached in one call: never persisted
      if (inProgress(persistedStatus(run))) continue; // deleted below
    }
    const committed = created ? undefined : tx.loaded.get(id);
    const expectedRevision = committed?.state.revision ?? 0;
    run.state.status = persistedStatus(run);
    run.state.revision = expectedRevision + 1;
    // From the working copy's edit log (O(change)): the committed state was changed in place.
    const change = committed === undefined ? null : tx.deltaOf(id);
    if (committed !== undefined && change !== null && !tx.detached.has(id) && isEmpty(change, committed)) {
      run.state.revision = expectedRevision;
      if (unchanged === null) unchanged = [run];
      else unchanged.push(run);
      continue;
    }
    const write = new Write(run, change, expectedRevision, committed === undefined ? 0 : registry.weight(id));
    write.prepare(store.keepsStates === true);
    writes.push(write);
  }
  for (const id of tx.detached) {
    if (tx.created.has(id)) continue;
    const run = tx.working.get(id) ?? tx.loaded.get(id);
    const committed = tx.loaded.get(id);
    // A child that could not be loaded is left alone; a finished one is kept (DIV-KEEP-FINISHED).
    if (run === undefined || committed === undefined || !inProgress(persistedStatus(run))) continue;
    const del = { flowId: id, expectedRevision: committed.state.revision };
    if (deletes === null) deletes = [del];
    else deletes.push(del);
  }
  // The working copy of an unchanged flow holds what the committed one does, plus the call's
  // in-process timing (dispatch times), which is kept as a commit keeps it.
  if (unchanged !== null) for (const run of unchanged) registry.replaceRun(run.state.flow_id, run);
  if (writes.length === 0 && deletes === null) return;
  const batch: StoreBatch = { writes, deletes: deletes ?? NO_DELETES };
  const now = store.immediate;
  if (now !== undefined) {
    takeCommitted(now.commit(batch), writes, tx, registry);
    return;
  }
  return store.commit(batch).then((tokens) => takeCommitted(tokens, writes, tx, registry));
}

const NO_DELETES: readonly StoreDelete[] = [];

/** The registry takes the committed runs with their new change tokens. */
function takeCommitted(
  tokens: ReadonlyMap<string, ChangeToken>,
  writes: readonly Write[],
  tx: EngineTx,
  registry: Registry,
): void {
  for (const write of writes) {
    const { run } = write;
    const token = tokens.get(write.flowId);
    if (token === undefined) registry.drop(write.flowId);
    else registry.set(write.flowId, { run, token, size: write.size() });
  }
  for (const id of tx.detached) registry.drop(id);
}

/** Whether a call's delta of a flow changes nothing that is stored (its status included). */
function isEmpty(delta: FlowDelta, committed: FlowRun): boolean {
  return (
    delta.status === committed.state.status &&
    noKeys(delta.set) &&
    noKeys(delta.append) &&
    noKeys(delta.put) &&
    noKeys(delta.delete)
  );
}

/** `Object.keys(group).length === 0` without the array of keys (a commit is on every transition's path). */
function noKeys(group: object): boolean {
  for (const key in group) if (Object.hasOwn(group, key)) return false;
  return true;
}

/**
 * A flow's write: its full text is encoded only when the store asks for it, at most once, and its
 * delta only for a store that writes texts (a store that keeps states is given the values). A
 * class rather than a closure per call: a commit is on every transition's path.
 */
class Write implements StoreWrite {
  readonly flowId: string;
  readonly finished: boolean;
  readonly revision: number;
  readonly value: WrittenState;
  private encoded: string | undefined;
  private encodedDelta: string | null | undefined;
  /** The estimated length of the text or delta (measureFlowState, measureDelta) when it was measured instead. */
  private measured: number | undefined;
  /** `before`: the flow's committed weight in the registry (0 for a new flow). */
  constructor(
    readonly run: FlowRun,
    change: FlowDelta | null,
    readonly expectedRevision: number,
    private readonly before: number,
  ) {
    this.flowId = run.state.flow_id;
    this.finished = !inProgress(run.state.status);
    this.revision = run.state.revision;
    this.value = { state: run.state, change };
  }

  get delta(): string | null {
    const change = this.value.change;
    this.encodedDelta ??= change === null ? null : encodeDelta(change, this.flowId);
    return this.encodedDelta;
  }

  text(): string {
    this.encoded ??= encodeFlowState(this.run.state);
    return this.encoded;
  }

  /**
   * Throws the codec's FlowTooLargeError now, before the store is asked, for a change it would
   * refuse: by encoding the delta for a store that writes texts (which it needs, and whose values
   * the next call changes in place), by measuring what would be written for a store that keeps states.
   */
  prepare(keepsStates: boolean): void {
    const change = this.value.change;
    if (!keepsStates) this.encodedDelta = change === null ? null : encodeDelta(change, this.flowId);
    else
      this.measured = change === null ? measureFlowState(this.run.state) : measureDelta(change, this.flowId);
  }

  /**
   * The registry weighs a flow by its stored length: the text when it was encoded, else the
   * committed weight plus the delta; for a store that keeps states, the estimates of the same
   * lengths (measureWire: the text counted without its indentation).
   */
  size(): number {
    const { before } = this;
    if (this.encoded !== undefined) return this.encoded.length;
    const change = this.value.change;
    if (change !== null && typeof this.encodedDelta === "string") return before + this.encodedDelta.length;
    // Neither encoded nor measured (a store that keeps states behind a wrapper that does not say
    // so): measured now. The commit is done, so what the codec would refuse weighs as before.
    try {
      this.measured ??=
        change === null ? measureFlowState(this.run.state) : measureDelta(change, this.flowId);
    } catch {
      return before;
    }
    return change === null ? this.measured : before + this.measured;
  }
}

/** Orders runs so that every child comes before its parent (sub-flows nest: depth first). */
function childrenFirst(working: ReadonlyMap<string, FlowRun>): Iterable<FlowRun> {
  if (working.size < 2) return working.values(); // the common case: a call touches one flow
  const runs = [...working.values()];
  const byId = new Map(runs.map((r) => [r.state.flow_id, r]));
  const depth = (run: FlowRun): number => {
    let d = 0;
    const seen = new Set<string>();
    for (let p = run.state.parent_flow_id; p !== null && byId.has(p) && !seen.has(p); d++) {
      seen.add(p);
      p = byId.get(p)?.state.parent_flow_id ?? null;
    }
    return d;
  };
  return runs
    .map((run, i) => ({ run, i, d: depth(run) }))
    .sort((a, b) => b.d - a.d || a.i - b.i)
    .map((x) => x.run);
}
