// A FlowStore in memory: the same revision and stale-state rules as the file store, change tokens
// from a counter. For tests and for engines that need no durability.
import { compareCodePoints } from "../../stdlib/values/strings";
import { batchFlowIds, checkRevisions } from "./batch";
import { assertSafeFlowId, isSafeFlowId } from "./flow-id";
import { revisionOf } from "./revision";
import type { ChangeToken, FlowStore, StoreBatch, StoredFlow, StoredFlowInfo } from "./store";

interface Entry extends StoredFlow {
  readonly modifiedMs: number;
}

export class MemoryStore implements FlowStore {
  private readonly flows = new Map<string, Entry>();
  private counter = 0;

  /** `now` stamps `modifiedMs` in list() (injected: the core reads no clock). */
  constructor(private readonly now: () => number = () => 0) {}

  async read(flowId: string): Promise<StoredFlow | null> {
    const entry = isSafeFlowId(flowId) ? this.flows.get(flowId) : undefined;
    return entry === undefined
      ? null
      : { text: entry.text, deltas: [], revision: entry.revision, token: entry.token };
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
      this.keep(w.flowId, w.text(), w.revision ?? 0, token);
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

  private keep(flowId: string, text: string, revision: number, token: ChangeToken): void {
    this.flows.set(flowId, { text, deltas: [], revision, token, modifiedMs: this.now() });
  }

  private nextToken(): ChangeToken {
    this.counter += 1;
    return `m${this.counter}`;
  }
}
