// One PostgreSQL database as the store, heard as its `changes` parameter says (store-list.ts):
// PgFlowStore with its `watch` replaced by polled-changes.ts's choice. Everything else is
// PgFlowStore's.
import type {
  ChangeToken,
  FlowStore,
  StoreBatch,
  StoreChange,
  StoredFlow,
  StoredFlowInfo,
} from "../../interpreter/index";
import { PgFlowStore, type PgStoreOptions } from "./pg-store";
import { acceptsListen, POLL_INTERVAL_MS, watchChanges } from "./polled-changes";
import type { PartitionUrl } from "./store-list";

export class ChangesFlowStore implements FlowStore {
  readonly inner: PgFlowStore;
  private probe: Promise<boolean> | null = null;

  constructor(
    private readonly url: PartitionUrl,
    options: PgStoreOptions = {},
    private readonly pollIntervalMs: number = POLL_INTERVAL_MS,
  ) {
    this.inner = new PgFlowStore(url.location, options);
  }

  open(): Promise<void> {
    return this.inner.open();
  }
  locate(flowId: string): string {
    return this.inner.locate(flowId);
  }
  read(flowId: string): Promise<StoredFlow | null> {
    return this.inner.read(flowId);
  }
  token(flowId: string): Promise<ChangeToken | null> {
    return this.inner.token(flowId);
  }
  list(): Promise<readonly StoredFlowInfo[]> {
    return this.inner.list();
  }
  remove(flowId: string): Promise<boolean> {
    return this.inner.remove(flowId);
  }
  commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    return this.inner.commit(batch);
  }
  watch(listener: (change: StoreChange) => void): () => void {
    const probe = (): Promise<boolean> => {
      this.probe ??= acceptsListen(this.url.location);
      return this.probe;
    };
    return watchChanges(this.inner, this.url.changes, probe, listener, this.pollIntervalMs);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
