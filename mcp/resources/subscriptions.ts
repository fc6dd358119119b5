// `resources/subscribe` for flows: the session is sent `notifications/resources/updated` when a
// flow it subscribed to changes (or is removed). A change is seen through the flow's change token
// in the store, checked
// - after each tool call of this session (the calls that change flows; the check is a stat or one
//   indexed row, not a read of the flow),
// - on the store's own change notices when it has them (PostgreSQL's LISTEN/NOTIFY: the commits of
//   every server on the database),
// - else every POLL_MS while the session has subscriptions (the file store: other processes and
//   other sessions of this process).
import type { ChangeToken, FlowStore, StoreChange } from "../../interpreter/index";
import { INVALID_PARAMS, rpcError } from "./rpc-error";

/** How many flows one session may subscribe to. */
export const MAX_SUBSCRIPTIONS = 100;
/** How often a store without change notices is polled for the subscribed flows' tokens. */
const POLL_MS = 1000;

export class FlowSubscriptions {
  /** Flow id → its token when last seen (null: absent). */
  private readonly seen = new Map<string, ChangeToken | null>();
  private stopWatching: (() => void) | null = null;
  private checking: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    private readonly store: FlowStore,
    private readonly updated: (flowId: string) => Promise<void>,
    /** Whether the session is still connected: a closed one stops following the store. */
    private readonly connected: () => boolean,
    private readonly pollMs = POLL_MS,
  ) {}

  /** Subscribes; false when the store has no such flow. */
  async subscribe(flowId: string): Promise<boolean> {
    if (!this.seen.has(flowId) && this.seen.size >= MAX_SUBSCRIPTIONS) {
      throw rpcError(
        INVALID_PARAMS,
        `Invalid params: at most ${MAX_SUBSCRIPTIONS} subscriptions per session`,
      );
    }
    const token = await this.store.token(flowId);
    if (token === null) return false;
    if (this.closed) return true;
    this.seen.set(flowId, token);
    this.follow();
    return true;
  }

  unsubscribe(flowId: string): void {
    this.seen.delete(flowId);
    if (this.seen.size === 0) this.unfollow();
  }

  /** Looks for changes now (after a tool call); a check already running is followed by one more. */
  changed(only?: string): void {
    if (!this.connected()) {
      this.close();
      return;
    }
    if (this.seen.size === 0 || (only !== undefined && !this.seen.has(only))) return;
    if (this.checking !== null) {
      this.again = true;
      return;
    }
    this.checking = this.checkAll().finally(() => {
      this.checking = null;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    });
  }

  /** Resolves once the running check, if any, is done (tests). */
  async settled(): Promise<void> {
    while (this.checking !== null) await this.checking;
  }

  close(): void {
    this.closed = true;
    this.seen.clear();
    this.unfollow();
  }

  private async checkAll(): Promise<void> {
    for (const [flowId, before] of [...this.seen]) {
      let token: ChangeToken | null;
      try {
        token = await this.store.token(flowId);
      } catch {
        continue; // a store that does not answer now: the next check sees the change
      }
      if (token === before || !this.seen.has(flowId)) continue;
      this.seen.set(flowId, token);
      await this.updated(flowId).catch(() => undefined);
    }
  }

  private follow(): void {
    if (this.stopWatching !== null) return;
    const { store } = this;
    if (store.watch !== undefined) {
      this.stopWatching = store.watch((change: StoreChange) => this.changed(change.flowId ?? undefined));
      // A change committed between `subscribe`'s token read and the listener's start is not told
      // (PostgreSQL: LISTEN is opened on the first subscription): the tokens are looked at again then.
      void store.watching?.().then(
        () => this.changed(),
        () => undefined,
      );
      return;
    }
    const timer = setInterval(() => this.changed(), this.pollMs);
    timer.unref();
    this.stopWatching = () => clearInterval(timer);
  }

  private unfollow(): void {
    this.stopWatching?.();
    this.stopWatching = null;
  }
}
