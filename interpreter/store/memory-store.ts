// A FlowStore in memory: the same revision and stale-state rules as the file store, change tokens
// from a counter. For tests and for engines that need no durability (the fuzzer's engine).
// A commit of a flow that exists keeps the call's delta instead of encoding the whole flow: the
// engine rarely reads back (its registry holds the runs), so encoding every state would be most of
// a transition's cost. A read folds the kept deltas into a full text, so readers see exactly what a
// store of whole texts would hold; the deltas are folded too once they outgrow the text
// (the journaled stores' rule, snapshot-policy.ts), which bounds the memory they take.
import { compareCodePoints } from "../../stdlib/values/strings";
import { batchFlowIds, checkRevisions } from "./batch";
import { encodeFlowState } from "./codec";
import { assertSafeFlowId, isSafeFlowId } from "./flow-id";
import { revisionOf } from "./revision";
import { deltaToAppend } from "./snapshot-policy";
import type { ChangeToken, FlowStore, StoreBatch, StoredFlow, StoredFlowInfo, StoreWrite } from "./store";
import { decodeStoredFlow } from "./stored-state";

interface Entry {
  /** The flow's text as of `textRevision`. */
  text: string;
  /** The changes since `text`, oldest first (delta texts). */
  readonly deltas: string[];
  /** The total length of `deltas`. */
  journal: number;
  readonly revision: number;
  readonly token: ChangeToken;
  readonly modifiedMs: number;
}

/** Some flows as a MemoryStore held them (`snapshot`); null for a flow it did not hold. */
export type MemoryStoreSnapshot = ReadonlyMap<string, Readonly<Entry> | null>;

export class MemoryStore implements FlowStore {
  private readonly flows = new Map<string, Entry>();
  private counter = 0;

  /** `now` stamps `modifiedMs` in list() (injected: the core reads no clock). */
  constructor(private readonly now: () => number = () => 0) {}

  async read(flowId: string): Promise<StoredFlow | null> {
    const entry = isSafeFlowId(flowId) ? this.flows.get(flowId) : undefined;
    if (entry === undefined) return null;
    fold(entry);
    return { text: entry.text, deltas: [], revision: entry.revision, token: entry.token };
  }

  async token(flowId: string): Promise<ChangeToken | null> {
    return this.flows.get(flowId)?.token ?? null;
  }

  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    batchFlowIds(batch).forEach(assertSafeFlowId);
    checkRevisions(batch, (id) => this.flows.get(id)?.revision ?? null);
    const tokens = new Map<string, ChangeToken>();
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

  /** Stores a text as another process would (test setup, e.g. a file written by the reference). */
  put(flowId: string, text: string, token: ChangeToken = this.nextToken()): void {
    assertSafeFlowId(flowId);
    this.keep(flowId, text, revisionOf(text) ?? 0, token);
  }

  /**
   * The flows `flowIds` as they are now, for `restore` (the fuzzer's exhaustive exploration goes
   * back to a decision's state to try its other choice). The texts are shared, never copied: only
   * an entry's journal list changes in place, so that is what is copied.
   */
  snapshot(flowIds: Iterable<string>): MemoryStoreSnapshot {
    const out = new Map<string, Entry | null>();
    for (const id of flowIds) {
      const entry = this.flows.get(id);
      out.set(id, entry === undefined ? null : { ...entry, deltas: [...entry.deltas] });
    }
    return out;
  }

  /**
   * Puts back the flows of a snapshot as they were, change tokens included (a reader holding the
   * state of a later token sees the change). Change tokens still come from the counter, which
   * goes on: a token is never handed out twice. Flows not in the snapshot are left as they are.
   */
  restore(snapshot: MemoryStoreSnapshot): void {
    for (const [id, entry] of snapshot) {
      if (entry === null) this.flows.delete(id);
      else this.flows.set(id, { ...entry, deltas: [...entry.deltas] });
    }
  }

  /** Keeps the write's delta after the flow's earlier state, or its whole text (a new flow, a long journal). */
  private write(w: StoreWrite, token: ChangeToken): void {
    const entry = this.flows.get(w.flowId);
    // Finished or not: nothing here reads the journal but `read`, which folds it anyway.
    const delta =
      entry === undefined
        ? null
        : deltaToAppend(
            { delta: w.delta, finished: false },
            { snapshot: entry.text.length, journal: entry.journal },
            (d) => d.length,
          );
    if (entry === undefined || delta === null) {
      this.keep(w.flowId, w.text(), w.revision ?? 0, token);
      return;
    }
    entry.deltas.push(delta);
    this.flows.set(w.flowId, {
      text: entry.text,
      deltas: entry.deltas,
      journal: entry.journal + delta.length,
      revision: w.revision ?? 0,
      token,
      modifiedMs: this.now(),
    });
  }

  private keep(flowId: string, text: string, revision: number, token: ChangeToken): void {
    this.flows.set(flowId, { text, deltas: [], journal: 0, revision, token, modifiedMs: this.now() });
  }

  private nextToken(): ChangeToken {
    this.counter += 1;
    return `m${this.counter}`;
  }
}

/** Replaces the entry's text by the text of its current state, its deltas applied. */
function fold(entry: Entry): void {
  if (entry.deltas.length === 0) return;
  const decoded = decodeStoredFlow({
    text: entry.text,
    deltas: entry.deltas,
    revision: entry.revision,
    token: entry.token,
  });
  // Both parts were encoded by this process from states it held: they decode.
  if (!decoded.ok)
    throw new Error(`memory store: a kept flow does not decode (${decoded.part}): ${decoded.reason}`);
  entry.text = encodeFlowState(decoded.state);
  entry.deltas.length = 0;
  entry.journal = 0;
}
