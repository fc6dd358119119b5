// Hearing of other servers' commits without LISTEN/NOTIFY: for databases that do not have it
// (docs/design/scale.md, "PostgreSQL-compatible distributed engines"), or where it is forced. The store's list
// (every flow's change token) is read every interval and compared with the last one: a new or
// changed token is a commit, a flow gone is a removal. It costs one read of the whole list per
// server and interval, so it is the fallback, not the default; a failed read is followed, once
// the store answers again, by "anything may have changed" (as a listener that reconnects).
import type { FlowStore, StoreChange } from "../../interpreter/index";
import { isConnectionError, PgDriver } from "./pg-driver";
import type { ChangesMode } from "./store-list";
import { parseStoreUrl } from "./store-url";

/** How often a polling server reads the list (the delay a change may take to be heard). */
export const POLL_INTERVAL_MS = 1000;

/**
 * Calls `listener` for every change of the store's list until the returned function is called.
 * `onReady` is called once the first read was tried: changes from then on are heard (after a first
 * read that failed, the first that succeeds says anything may have changed).
 */
export function pollChanges(
  store: Pick<FlowStore, "list" | "token">,
  listener: (change: StoreChange) => void,
  intervalMs: number = POLL_INTERVAL_MS,
  onReady: () => void = () => undefined,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let last: Map<string, string> | null = null;
  let missed = false;
  const tick = async (): Promise<void> => {
    timer = null;
    try {
      const flows = await store.list();
      if (stopped) return;
      const now = new Map<string, string>();
      // PostgreSQL lists every token; a store that does not is asked for each.
      for (const f of flows)
        now.set(f.flowId, f.token ?? (await store.token(f.flowId)) ?? String(f.modifiedMs));
      if (missed) listener({ flowId: null, token: null });
      else if (last !== null) {
        for (const [flowId, token] of now) if (last.get(flowId) !== token) listener({ flowId, token });
        for (const flowId of last.keys()) if (!now.has(flowId)) listener({ flowId, token: null });
      }
      last = now;
      missed = false;
    } catch {
      missed = true;
    }
    onReady();
    if (!stopped) {
      timer = setTimeout(() => void tick(), intervalMs);
      timer.unref();
    }
  };
  void tick();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}

/**
 * Whether the database accepts LISTEN: one statement on a connection of its own, closed after.
 * A database that cannot be reached counts as accepting it (the listener retries until it is back).
 */
export async function acceptsListen(location: string): Promise<boolean> {
  const url = parseStoreUrl(location);
  const db = new PgDriver({
    connectionString: url.connectionString,
    poolSize: 1,
    connectTimeoutMs: url.connectTimeoutMs,
    queryTimeoutMs: url.queryTimeoutMs,
  });
  try {
    await db.query("LISTEN stratum_probe");
    await db.query("UNLISTEN stratum_probe");
    return true;
  } catch (e) {
    return isConnectionError(e);
  } finally {
    await db.end().catch(() => undefined);
  }
}

/**
 * Watches `store` as `mode` says: its own `watch` (LISTEN), polling, or (auto) its own `watch` at
 * once (so a database with LISTEN hears as soon as without the probe) replaced by polling when the
 * probe finds LISTEN refused. `probe` is memoised by the caller (once per database). `onReady` is
 * called once the way of hearing is chosen and in place (for LISTEN, the store's own `watching`
 * says when it listens).
 */
export function watchChanges(
  store: FlowStore,
  mode: ChangesMode,
  probe: () => Promise<boolean>,
  listener: (change: StoreChange) => void,
  intervalMs: number = POLL_INTERVAL_MS,
  onReady: () => void = () => undefined,
): () => void {
  const poll = (): (() => void) => pollChanges(store, listener, intervalMs, onReady);
  if (mode === "poll" || store.watch === undefined) return poll();
  let stop = store.watch(listener);
  if (mode === "listen") {
    onReady();
    return stop;
  }
  let stopped = false;
  void probe().then((ok) => {
    if (stopped) return onReady();
    if (ok) return onReady();
    stop();
    stop = poll();
  });
  return () => {
    stopped = true;
    stop();
  };
}
