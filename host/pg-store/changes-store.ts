// One PostgreSQL database as the store, heard as its `changes` parameter says (store-list.ts):
// PgFlowStore with its `watch` replaced by polled-changes.ts's choice (LISTEN, or polling where
// the database refuses LISTEN). Everything else is PgFlowStore's.
import type { FlowStore, StoreChange } from "../../interpreter/index";
import { PgFlowStore, type PgStoreOptions } from "./pg-store";
import { acceptsListen, POLL_INTERVAL_MS, watchChanges } from "./polled-changes";
import type { PartitionUrl } from "./store-list";

export class ChangesFlowStore extends PgFlowStore {
  private probe: Promise<boolean> | null = null;
  /** The watches not stopped yet: closing the store stops them (a poll must not outlive it). */
  private readonly stops = new Set<() => void>();
  /** One per watch not stopped: resolved once its way of hearing is in place (a first poll read). */
  private readonly inPlace = new Set<Promise<void>>();

  constructor(
    private readonly partition: PartitionUrl,
    options: PgStoreOptions = {},
    private readonly pollIntervalMs: number = POLL_INTERVAL_MS,
  ) {
    super(partition.location, options);
  }

  override watch(listener: (change: StoreChange) => void): () => void {
    const probe = (): Promise<boolean> => {
      this.probe ??= acceptsListen(this.partition.location);
      return this.probe;
    };
    // The single-database store's own listener, seen through an object that is not this one (so
    // that watchChanges' call to `watch` is LISTEN, not this method again).
    const own: FlowStore = {
      read: (id) => this.read(id),
      token: (id) => this.token(id),
      commit: (batch) => this.commit(batch),
      list: () => this.list(),
      remove: (id) => this.remove(id),
      watch: (l) => super.watch(l),
    };
    let ready = (): void => undefined;
    const inPlace = new Promise<void>((resolve) => {
      ready = resolve;
    });
    this.inPlace.add(inPlace);
    const stop = watchChanges(own, this.partition.changes, probe, listener, this.pollIntervalMs, ready);
    const once = (): void => {
      this.stops.delete(once);
      this.inPlace.delete(inPlace);
      ready();
      stop();
    };
    this.stops.add(once);
    return once;
  }

  /** Resolves once every watch hears changes: LISTEN listening, or a poll's first read done. */
  override async watching(): Promise<void> {
    await super.watching();
    await Promise.all(this.inPlace);
  }

  override async close(): Promise<void> {
    for (const stop of [...this.stops]) stop();
    await super.close();
  }
}
