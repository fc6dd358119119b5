// The in-memory registry of flows (docs/reference/runtime.md §1.1) and how it stays in step with the store
// (docs/reference/runtime.md §14.3–14.4): a flow is used from memory only while the store's change token is the one this
// process last read or wrote; otherwise it is reloaded, keeping the in-process timing.
//
// Memory is bounded: the registry is a least-recently-used cache over the store, by
// number of flows and by the size of their stored text. An evicted flow is reloaded on demand
// like one changed by another process; its in-process timing (dispatch times, a few numbers per
// flow in progress) is kept aside in a larger bounded map so a reload does not reset a running step's clock.
import type { CheckedSpec } from "../../checker/ir/types";
import { withoutKeys } from "../base/forget-keys";
import { cloneState } from "../flow/clone";
import type { Clock } from "../flow/ports";
import type { FlowRun, FlowTiming } from "../flow/run";
import { inProgress } from "../flow/status";
import { isSafeFlowId } from "../store/flow-id";
import type { ChangeToken, FlowStore, StoreChange, StoredFlow } from "../store/store";
import { corruptError, decodeStoredFlow, storedSize } from "../store/stored-state";
import { restoreRun } from "./restore";

export interface RegistryEntry {
  /**
   * The committed run. A call works on a shallow copy whose shared containers it changes in place
   * through flow/edits.ts; they are restored from the edit log unless the call commits.
   */
  readonly run: FlowRun;
  readonly token: ChangeToken;
  /**
   * The length of its stored text and deltas, the registry's measure of its weight; for a flow
   * committed to a store that keeps states (nothing encoded), the estimate of the same lengths
   * (wire/measure.ts: the text counted on one line, escapes and digits approximated).
   */
  readonly size: number;
}

/** How much the registry may hold; the least recently used flows leave first. */
export interface RegistryLimits {
  readonly maxFlows: number;
  /** Total stored-text length (UTF-16 units, or its estimate: RegistryEntry.size) of the flows held. */
  readonly maxSize: number;
  /** Timings of evicted flows kept for their reload. */
  readonly maxTimings: number;
}

/**
 * Our choice: 256 flows or 8 Mi characters of flow text, whichever is reached first (a flow in
 * memory takes a few times its text). A server keeps its working set in memory; a weeks-long
 * server's thousands of finished flows stay on disk.
 */
const DEFAULT_REGISTRY_LIMITS: RegistryLimits = {
  maxFlows: 256,
  maxSize: 8 * 1024 * 1024,
  maxTimings: 4096,
};

/** Some flows as a registry held them, copied (`Registry.snapshot`). */
export type RegistrySnapshot = ReadonlyMap<string, RegistryEntry>;

/** A run that can be changed in place without changing `run` (its state and dispatch times copied). */
function copyRun(run: FlowRun): FlowRun {
  const { timing } = run;
  return {
    state: cloneState(run.state),
    spec: run.spec,
    flow: run.flow,
    timing: {
      startedAt: timing.startedAt,
      stepDispatchedAt: new Map(timing.stepDispatchedAt),
      gateDispatchedAt: new Map(timing.gateDispatchedAt),
    },
  };
}

export class Registry {
  private entries = new Map<string, RegistryEntry>();
  private totalSize = 0;
  private evictedTimings = new Map<string, FlowTiming>();

  constructor(
    private readonly store: FlowStore,
    private readonly compile: (specText: string) => CheckedSpec | null,
    private readonly clock: Clock,
    private readonly limits: RegistryLimits = DEFAULT_REGISTRY_LIMITS,
  ) {}

  /** How many flows are held in memory (for tests and benchmarks). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The current committed run of a flow, reloaded or restored from the store as needed; null when
   * unknown. Throws FlowCorruptError when the stored text cannot be decoded. A value at once from a
   * store that answers at once (FlowStore.immediate), else a promise.
   */
  load(flowId: string): FlowRun | null | Promise<FlowRun | null> {
    if (!isSafeFlowId(flowId)) return null;
    const entry = this.entries.get(flowId);
    const found = entry === undefined ? this.read(flowId) : this.readIfChanged(flowId, entry.token);
    return found instanceof Promise
      ? found.then((f) => this.loaded(flowId, entry, f))
      : this.loaded(flowId, entry, found);
  }

  /** The run of what the store answered for a flow (`entry`: what the registry held before). */
  private loaded(
    flowId: string,
    entry: RegistryEntry | undefined,
    found: StoredFlow | null | "unchanged",
  ): FlowRun | null {
    if (found === "unchanged" && entry !== undefined) {
      this.touch(flowId, entry);
      return entry.run;
    }
    // Our choice: a file that disappeared (pruned or deleted by another process) means the
    // flow is gone; a file that changed is reloaded.
    if (entry !== undefined) this.drop(flowId);
    const stored = found === "unchanged" ? null : found;
    if (stored === null) return null;
    const decoded = decodeStoredFlow(stored);
    if (!decoded.ok) throw corruptError(this.store, flowId, stored, decoded);
    const restored = restoreRun(decoded.state, this.compile, this.clock);
    if (restored === null) return null;
    // A reload inside a running process keeps that process's dispatch times and start time.
    const timing = entry?.run.timing ?? this.evictedTimings.get(flowId);
    this.evictedTimings.delete(flowId);
    const run = timing === undefined ? restored : { ...restored, timing };
    this.set(flowId, { run, token: stored.token, size: storedSize(stored) });
    return run;
  }

  private read(flowId: string): StoredFlow | null | Promise<StoredFlow | null> {
    const now = this.store.immediate;
    return now === undefined ? this.store.read(flowId) : now.read(flowId);
  }

  /** The stored flow unless its token is still `token` (one request where the store has it). */
  private readIfChanged(
    flowId: string,
    token: ChangeToken,
  ): StoredFlow | null | "unchanged" | Promise<StoredFlow | null | "unchanged"> {
    const now = this.store.immediate;
    if (now !== undefined) {
      const current = now.token(flowId);
      if (current === token) return "unchanged";
      return current === null ? null : now.read(flowId);
    }
    if (this.store.readIfChanged !== undefined) return this.store.readIfChanged(flowId, token);
    return this.store
      .token(flowId)
      .then((current): StoredFlow | null | "unchanged" | Promise<StoredFlow | null> => {
        if (current === token) return "unchanged";
        return current === null ? null : this.store.read(flowId);
      });
  }

  /** The run held in memory for a flow, as last committed or loaded (no I/O, no reload); null when none. */
  peek(flowId: string): FlowRun | null {
    return this.entries.get(flowId)?.run ?? null;
  }

  /**
   * The flow and the chain of its active children (sub-flow steps use them synchronously): at once
   * from a store that answers at once, else a promise.
   */
  loadChain(flowId: string): Map<string, FlowRun> | Promise<Map<string, FlowRun>> {
    return this.chainFrom(new Map(), flowId);
  }

  private chainFrom(
    out: Map<string, FlowRun>,
    from: string | null,
  ): Map<string, FlowRun> | Promise<Map<string, FlowRun>> {
    let id = from;
    while (id !== null && !out.has(id)) {
      const run = this.load(id);
      if (run instanceof Promise) {
        const at = id;
        return run.then((r) =>
          r === null ? out : this.chainFrom(out.set(at, r), r.state.active_child_flow_id),
        );
      }
      if (run === null) break;
      out.set(id, run);
      id = run.state.active_child_flow_id;
    }
    return out;
  }

  set(flowId: string, entry: RegistryEntry): void {
    this.drop(flowId);
    this.entries.set(flowId, entry);
    this.totalSize += entry.size;
    this.evictedTimings.delete(flowId);
    this.evict();
  }

  /**
   * Holds `run` for a flow in place of the run it holds, with the same change token and weight:
   * a call's working copy that changed nothing stored (nothing to write, nothing to reload).
   */
  replaceRun(flowId: string, run: FlowRun): void {
    const entry = this.entries.get(flowId);
    if (entry !== undefined) this.entries.set(flowId, { ...entry, run });
  }

  drop(flowId: string): void {
    const entry = this.entries.get(flowId);
    if (entry === undefined) return;
    this.entries.delete(flowId);
    this.totalSize -= entry.size;
  }

  /** The stored length the registry counts for a flow it holds (0 when it holds none). */
  weight(flowId: string): number {
    return this.entries.get(flowId)?.size ?? 0;
  }

  /**
   * Another process changed a flow (FlowStore.watch): forget it unless it is already what we hold;
   * `flowId` null (changes may have been missed): forget every flow. An in-progress flow keeps its
   * dispatch times for its reload, as on eviction.
   */
  invalidate(change: StoreChange): void {
    const ids = change.flowId === null ? [...this.entries.keys()] : [change.flowId];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry === undefined || (change.flowId !== null && entry.token === change.token)) continue;
      this.drop(id);
      if (inProgress(entry.run.state.status)) this.evictedTimings.set(id, entry.run.timing);
    }
  }

  /**
   * Copies of the committed runs held for `flowIds` (those not held are left out), for `restore`.
   * Committed runs change in place as later calls commit, so both sides copy.
   */
  snapshot(flowIds: Iterable<string>): RegistrySnapshot {
    const out = new Map<string, RegistryEntry>();
    for (const id of flowIds) {
      const entry = this.entries.get(id);
      if (entry !== undefined) out.set(id, { ...entry, run: copyRun(entry.run) });
    }
    return out;
  }

  /**
   * Holds the runs of a snapshot again, with their change tokens: where the store holds the same
   * tokens (it was put back too) they are used without a reload; where it does not, they reload.
   */
  restore(snapshot: RegistrySnapshot): void {
    for (const [id, entry] of snapshot) this.set(id, { ...entry, run: copyRun(entry.run) });
  }

  /**
   * Forgets these flows, their dispatch times too (their store forgets them as well). The fuzzer
   * forgets all it holds as each run starts: fresh maps then (base/forget-keys.ts says why).
   */
  forget(flowIds: Iterable<string>): void {
    const ids = new Set(flowIds);
    for (const id of ids) this.totalSize -= this.entries.get(id)?.size ?? 0;
    this.entries = withoutKeys(this.entries, ids);
    this.evictedTimings = withoutKeys(this.evictedTimings, ids);
  }

  /** Forgets everything (a simulated restart in tests). */
  clear(): void {
    this.entries = new Map();
    this.evictedTimings = new Map();
    this.totalSize = 0;
  }

  /** Marks a flow as the most recently used (Map order is insertion order). */
  private touch(flowId: string, entry: RegistryEntry): void {
    this.entries.delete(flowId);
    this.entries.set(flowId, entry);
  }

  /** Removes the least recently used flows over the limits; the newest one always stays. */
  private evict(): void {
    const { maxFlows, maxSize, maxTimings } = this.limits;
    while (this.entries.size > 1 && (this.entries.size > maxFlows || this.totalSize > maxSize)) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, RegistryEntry];
      this.drop(oldestId);
      if (inProgress(oldest.run.state.status)) this.evictedTimings.set(oldestId, oldest.run.timing);
    }
    while (this.evictedTimings.size > maxTimings) {
      const oldestId = this.evictedTimings.keys().next().value as string;
      this.evictedTimings.delete(oldestId);
    }
  }
}
