// A FlowStore in memory: the same revision and stale-state rules as the file store, change tokens
// from a counter. For tests and for engines that need no durability (the fuzzer's engine).
// It keeps each flow's state rather than its text (`keepsStates`): a new flow's state copied as a
// working copy is, each commit's change applied to it in place with the copies `applyDeltaInPlace`
// makes (so the engine's next call, which changes its own containers in place, changes nothing
// here); its empty maps are one shared map until a change puts into them (keptCopyOfState). A flow is encoded only when it is read, once per revision: the engine rarely reads back
// (its registry holds the runs), so encoding every commit's delta or every new flow's text was
// most of the store's cost. A read answers exactly the text a store of whole texts would hold.
import { compareCodePoints } from "../../stdlib/values/strings";
import type { FlowState } from "../base/flow-state";
import { withoutKeys } from "../base/forget-keys";
import { batchFlowIds, checkRevisions } from "./batch";
import { decodeFlowState, encodeFlowState } from "./codec";
import { applyDeltaInPlace, decodeDelta, keptCopyOfState } from "./delta";
import { assertSafeFlowId, isSafeFlowId } from "./flow-id";
import { revisionOf } from "./revision";
import type {
  ChangeToken,
  FlowStore,
  ImmediateStore,
  StoreBatch,
  StoredFlow,
  StoredFlowInfo,
  StoreWrite,
} from "./store";

interface Entry {
  /** The flow's state; null for a text stored as is (`put`, a write without values) until a change is applied to it. */
  state: FlowState | null;
  /** The text of `state` once a read encoded it, or the text stored as is; null until then. */
  text: string | null;
  revision: number;
  token: ChangeToken;
  modifiedMs: number;
  /** A snapshot holds `state` too: a change copies it first (copy on write). */
  shared: boolean;
}

/** Some flows as a MemoryStore held them (`snapshot`); null for a flow it did not hold. */
export type MemoryStoreSnapshot = ReadonlyMap<string, Readonly<Entry> | null>;

export class MemoryStore implements FlowStore {
  readonly keepsStates = true;
  private flows = new Map<string, Entry>();
  private counter = 0;

  /** `now` stamps `modifiedMs` in list() (injected: the core reads no clock). */
  constructor(private readonly now: () => number = () => 0) {}

  private readonly storedRevision = (flowId: string): number | null =>
    this.flows.get(flowId)?.revision ?? null;

  /**
   * The memory store's operations answered at once (FlowStore.immediate); the async ones wrap
   * them. None for a subclass that overrides `read`, `token` or `commit` (a test's store that
   * counts or fails them): the engine then asks through them. Each commit answers a map of its own:
   * one map refilled was emptied by `clear`, whose left tables kept every earlier commit's tokens
   * alive through the young-generation collections (base/forget-keys.ts).
   */
  get immediate(): ImmediateStore | undefined {
    const own = MemoryStore.prototype;
    return this.read === own.read && this.token === own.token && this.commit === own.commit
      ? this.atOnce
      : undefined;
  }

  private readonly atOnce: ImmediateStore = {
    read: (flowId) => this.readNow(flowId),
    token: (flowId) => this.flows.get(flowId)?.token ?? null,
    commit: (batch) => this.commitNow(batch, new Map()),
  };

  async read(flowId: string): Promise<StoredFlow | null> {
    return this.readNow(flowId);
  }

  private readNow(flowId: string): StoredFlow | null {
    const entry = isSafeFlowId(flowId) ? this.flows.get(flowId) : undefined;
    if (entry === undefined) return null;
    // The state was measured when it was committed (commit.ts): it encodes.
    entry.text ??= encodeFlowState(entry.state as FlowState);
    return { text: entry.text, deltas: [], revision: entry.revision, token: entry.token };
  }

  async token(flowId: string): Promise<ChangeToken | null> {
    return this.flows.get(flowId)?.token ?? null;
  }

  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    return this.commitNow(batch, new Map());
  }

  private commitNow(batch: StoreBatch, tokens: Map<string, ChangeToken>): ReadonlyMap<string, ChangeToken> {
    for (const id of batchFlowIds(batch)) assertSafeFlowId(id);
    checkRevisions(batch, this.storedRevision);
    for (const w of batch.writes) {
      const token = this.nextToken();
      // checkRevisions passed: the write carries the next revision.
      this.write(w, token);
      tokens.set(w.flowId, token);
    }
    for (const d of batch.deletes) this.flows.delete(d.flowId);
    return tokens;
  }

  async list(): Promise<readonly StoredFlowInfo[]> {
    return [...this.flows.entries()]
      .sort(([a], [b]) => compareCodePoints(`${a}.json`, `${b}.json`)) // file-name order, as on disk
      .map(([flowId, entry]) => ({ flowId, modifiedMs: entry.modifiedMs }));
  }

  async remove(flowId: string): Promise<boolean> {
    return this.flows.delete(flowId);
  }

  /**
   * Forgets flows at once (the fuzzer drops a finished run's flows, which no later run can see:
   * kept, every one of them would be copied by the garbage collector until it grew old). When they
   * are all the store holds, it starts a fresh map (base/forget-keys.ts says why).
   */
  drop(flowIds: Iterable<string>): void {
    this.flows = withoutKeys(this.flows, flowIds);
  }

  /** Stores a text as another process would (test setup, e.g. a file written by the reference). */
  put(flowId: string, text: string, token: ChangeToken = this.nextToken()): void {
    assertSafeFlowId(flowId);
    this.keep(flowId, null, text, revisionOf(text) ?? 0, token);
  }

  /**
   * The flows `flowIds` as they are now, for `restore` (the fuzzer's exhaustive exploration goes
   * back to a decision's state to try its other choice). Nothing is copied: the kept state is
   * marked shared, and the next change to it works on a copy (most snapshots are restored or
   * dropped before the flow changes, and a path changes a flow once per call, not per decision).
   */
  snapshot(flowIds: Iterable<string>): MemoryStoreSnapshot {
    const out = new Map<string, Entry | null>();
    for (const id of flowIds) {
      const entry = this.flows.get(id);
      if (entry !== undefined) entry.shared = true;
      out.set(id, entry === undefined ? null : { ...entry });
    }
    return out;
  }

  /**
   * Puts back the flows of a snapshot as they were, change tokens included (a reader holding the
   * state of a later token sees the change). Change tokens still come from the counter, which
   * goes on: a token is never handed out twice. Flows not in the snapshot are left as they are.
   * The snapshot stays usable: the restored entry shares its state, so a change copies it first.
   */
  restore(snapshot: MemoryStoreSnapshot): void {
    for (const [id, entry] of snapshot) {
      if (entry === null) this.flows.delete(id);
      else this.flows.set(id, { ...entry, shared: true });
    }
  }

  /** Keeps the write's state: a copy of a new flow's, the change applied to an existing one's. */
  private write(w: StoreWrite, token: ChangeToken): void {
    const revision = w.revision ?? 0;
    const value = w.value;
    if (value !== undefined && value.change === null) {
      this.keep(w.flowId, keptCopyOfState(value.state), null, revision, token);
      return;
    }
    const delta = value === undefined ? w.delta : null;
    if (value === undefined && delta === null) {
      this.keep(w.flowId, null, w.text(), revision, token);
      return;
    }
    // A change: checkRevisions passed, so the flow exists at the expected revision.
    const entry = this.flows.get(w.flowId) as Entry;
    const kept = entry.state;
    const state =
      kept === null ? decodeKept(entry.text as string) : entry.shared ? keptCopyOfState(kept) : kept;
    applyDeltaInPlace(state, value?.change ?? decodeKeptDelta(delta as string));
    entry.state = state;
    entry.shared = false;
    entry.text = null;
    entry.revision = revision;
    entry.token = token;
    entry.modifiedMs = this.now();
  }

  private keep(
    flowId: string,
    state: FlowState | null,
    text: string | null,
    revision: number,
    token: ChangeToken,
  ): void {
    this.flows.set(flowId, { state, text, revision, token, modifiedMs: this.now(), shared: false });
  }

  private nextToken(): ChangeToken {
    this.counter += 1;
    return `m${this.counter}`;
  }
}

/**
 * The state of a text stored as is, to apply a change to: the writer read the flow from this
 * text, so it decodes.
 */
function decodeKept(text: string): FlowState {
  const decoded = decodeFlowState(text);
  if (!decoded.ok) throw new Error(`memory store: a changed flow does not decode: ${decoded.reason}`);
  return decoded.state;
}

/** A delta text of a write without values; its writer encoded it from a state it held. */
function decodeKeptDelta(text: string): Parameters<typeof applyDeltaInPlace>[1] {
  const delta = decodeDelta(text);
  if ("problem" in delta) throw new Error(`memory store: a written delta does not decode: ${delta.problem}`);
  return delta;
}
