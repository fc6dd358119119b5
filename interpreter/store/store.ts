// Where flows are persisted (docs/reference/runtime.md §14). The state machine never sees the store: the engine
// reads flows before a call and commits the call's changes afterwards. The interface is small and
// asynchronous so that a database-backed store can implement it without touching the state
// machine; `file-store.ts` is the embedded default (`$STRATUM_HOME/flows/<id>.json` plus an
// append-only `<id>.journal` of state deltas, docs/design/durable-store.md).
import type { FlowState } from "../base/flow-state";
import type { FlowDelta } from "./delta";
import { revisionOf } from "./revision";

/** An opaque token that changes whenever the stored flow changes (for files: mtime, size, inode). */
export type ChangeToken = string;

export interface StoredFlow {
  /** The flow file's JSON text (docs/reference/runtime.md §14.1 layout): the flow as of its snapshot. */
  readonly text: string;
  /**
   * The changes since the snapshot, oldest first: delta texts (store/delta.ts) with revisions
   * `revisionOf(text) + 1, + 2, …`. Empty for a store without a journal. decodeStoredFlow applies them.
   */
  readonly deltas: readonly string[];
  /** The flow's current revision: the last delta's, else the text's (0 for a file without one). */
  readonly revision: number;
  readonly token: ChangeToken;
  /** Where the deltas are stored, for messages (a file path); absent for stores without one. */
  readonly deltaSource?: string;
  /**
   * Why the stored deltas cannot be used (damaged, out of sequence): the flow is corrupt. `deltas`
   * then holds those before the damage, for nothing but diagnosis.
   */
  readonly deltaProblem?: string;
  /** The last commit, ms since the epoch, when the store knows it (as StoredFlowInfo.modifiedMs). */
  readonly modifiedMs?: number;
}

export interface StoredFlowInfo {
  readonly flowId: string;
  /** Last modification, ms since the epoch. */
  readonly modifiedMs: number;
  /** The flow's change token, from stores that list it at no cost (saves a `token` call per flow). */
  readonly token?: ChangeToken;
}

export interface StoreWrite {
  readonly flowId: string;
  /**
   * The complete new text; its `revision` is `expectedRevision + 1`. Computed on demand: a store
   * with a journal asks for it only when it writes a snapshot (encoding a long flow is O(length)).
   */
  text(): string;
  /**
   * The same change as a delta from the state at `expectedRevision` (store/delta.ts, revision
   * `expectedRevision + 1`), or null when there is none (a new flow): then the text is written.
   */
  readonly delta: string | null;
  /** The flow has finished (complete, killed, exhausted): a journaled store writes a snapshot. */
  readonly finished: boolean;
  /** The revision this process last read or wrote; 0 for a flow that must not exist yet. */
  readonly expectedRevision: number;
  /**
   * The revision the text and the delta carry, as their writer put it there (`expectedRevision + 1`
   * for a valid write; null when a text from elsewhere has none). A value, so that no store parses
   * it back out of the delta or the text it was just encoded into.
   */
  readonly revision: number | null;
  /**
   * The same write as values, for a store that keeps states instead of texts (`keepsStates`);
   * absent for a text from elsewhere (a copied flow, a test's setup).
   */
  readonly value?: WrittenState;
}

/** A write's new state and change as values (StoreWrite.value). */
export interface WrittenState {
  /**
   * The flow's new state (revision and status included). The writer changes its containers in
   * place again after the commit, as a working copy's (store/delta.ts `copyState`): a store that
   * keeps it keeps a copy.
   */
  readonly state: FlowState;
  /**
   * The change from the state at `expectedRevision`: what `delta` encodes, null exactly when it is
   * null. Its values are the state's own: a store applies it with the copies `applyDeltaInPlace` makes.
   */
  readonly change: FlowDelta | null;
}

export interface StoreDelete {
  readonly flowId: string;
  readonly expectedRevision: number;
}

/** A set of changes applied all together: every precondition is checked before anything is written. */
export interface StoreBatch {
  /** In the order given (children before parents). */
  readonly writes: readonly StoreWrite[];
  readonly deletes: readonly StoreDelete[];
}

export interface FlowStore {
  /**
   * The store keeps states (StoreWrite.value) and encodes them only when a flow is read (the memory
   * store): its writer need not encode `delta` nor `text()` at commit, but measures the change
   * instead (codec.ts `measureFlowState`, delta.ts `measureDelta`), so that what the codec refuses
   * is refused before the store is asked, as with every other store.
   */
  readonly keepsStates?: boolean;
  /**
   * The same reads and commit answered at once, for a store that does no I/O (the memory store):
   * the engine calls them without awaiting, so that a call on such a store settles in one
   * synchronous pass (the promise frames of a read and a commit were a measurable share of a
   * fuzzed transition). Absent for a store that waits for a disk or a server.
   */
  readonly immediate?: ImmediateStore;
  /** The stored flow, or null when there is none. */
  read(flowId: string): Promise<StoredFlow | null>;
  /** The current change token without reading the flow; null when there is none. */
  token(flowId: string): Promise<ChangeToken | null>;
  /**
   * `"unchanged"` while the flow's change token is still `token`, else the stored flow (null when
   * there is none): `token` then `read` in one request, for stores where each costs a round trip
   * (a database). Stores without it are asked `token`, then `read` when it changed.
   */
  readIfChanged?(flowId: string, token: ChangeToken): Promise<StoredFlow | null | "unchanged">;
  /**
   * Applies a batch atomically with respect to other processes using the same store: takes the
   * lock of every flow involved, checks each expected revision against the stored one, writes (a
   * crash never leaves a partly written flow) and deletes, releases the locks. Resolves to the new
   * change token of every written flow. Rejects with StoreLockedError, StaleStateError or
   * StoreUnwritableError and then has changed nothing.
   */
  commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>>;
  /** Every stored flow id, in file-name (code point) order. */
  list(): Promise<readonly StoredFlowInfo[]>;
  /** Deletes a flow (prune); false when it did not exist. */
  remove(flowId: string): Promise<boolean>;
  /** Where the flow is stored, for messages (a file path); absent for stores without one. */
  locate?(flowId: string): string;
  /**
   * Hears of every change committed to the store by any process, soon after it is committed, for
   * stores that are told (PostgreSQL's LISTEN/NOTIFY); returns the function that stops listening.
   * Stores without it are watched by their readers some other way, or not at all.
   */
  watch?(listener: (change: StoreChange) => void): () => void;
  /**
   * Resolves once `watch` hears changes (its listener is in place): a change committed before
   * then is not told, so a watcher that read tokens earlier looks at them again.
   */
  watching?(): Promise<void>;
  /**
   * Connects a store that has a server behind it and checks or creates what it needs there (a
   * database's schema), so that a problem shows at once; every other method does it on first use.
   */
  open?(): Promise<void>;
  /** Releases what the store holds open (connections); the store must not be used afterwards. */
  close?(): Promise<void> | void;
}

/**
 * FlowStore.immediate: `read`, `token` and `commit` as values; `commit` throws what the promise
 * would reject with, and its map of tokens is read before the next commit (a store may refill one).
 */
export interface ImmediateStore {
  read(flowId: string): StoredFlow | null;
  token(flowId: string): ChangeToken | null;
  commit(batch: StoreBatch): ReadonlyMap<string, ChangeToken>;
}

/**
 * A change heard by `FlowStore.watch`: a flow committed (its new token) or removed (token null),
 * or `flowId` null when changes may have been missed (the notification channel was lost and is
 * back): then anything may have changed.
 */
export type StoreChange =
  | { readonly flowId: string; readonly token: ChangeToken | null }
  | { readonly flowId: null; readonly token: null };

/** `state_locked` (docs/reference/runtime.md §14.3 step 1). */
export class StoreLockedError extends Error {
  constructor(readonly flowId: string) {
    super(`Flow '${flowId}' is locked by another process; retry the call`);
    this.name = "StoreLockedError";
  }
}

/** `stale_state` (docs/reference/runtime.md §14.3 step 2). */
export class StaleStateError extends Error {
  constructor(
    readonly flowId: string,
    readonly diskRevision: number,
    readonly expectedRevision: number,
  ) {
    super(
      `Flow '${flowId}' was changed by another process (revision ${diskRevision} on disk, ${expectedRevision} expected); the call was not applied — retry it`,
    );
    this.name = "StaleStateError";
  }
}

/**
 * `stale_state` for a flow the call read from the store and another process removed since (pruned,
 * or a child its parent detached): the call is refused rather than writing the flow again.
 */
export class FlowRemovedError extends StaleStateError {
  constructor(flowId: string) {
    super(flowId, 0, 0);
    this.message = `Flow '${flowId}' was removed by another process; the call was not applied`;
    this.name = "FlowRemovedError";
  }
}

/**
 * `store_unwritable`: the store cannot be written — a read-only file system, a full
 * disk, a quota, missing permissions, a path that is not a directory. Names the path and the
 * operating system's reason; the call changed nothing.
 */
export class StoreUnwritableError extends Error {
  constructor(
    readonly path: string,
    /** The OS error code, e.g. `EROFS`. */
    readonly code: string,
    readonly reason: string,
  ) {
    super(`cannot write the flow store at ${path}: ${reason} (${code})`);
    this.name = "StoreUnwritableError";
  }
}

/**
 * `store_unavailable`: a database store cannot be reached (down, restarting, refusing the
 * connection, network gone). `where` names the store without credentials. When the connection was
 * lost while a commit was in flight, `unknownOutcome` is true: the call may have been applied.
 */
export class StoreUnavailableError extends Error {
  constructor(
    readonly where: string,
    readonly reason: string,
    readonly unknownOutcome = false,
  ) {
    super(
      unknownOutcome
        ? `lost the connection to the flow store at ${where} while committing (${reason}): the call may or may not have been applied — read the flow before retrying`
        : `cannot reach the flow store at ${where}: ${reason}`,
    );
    this.name = "StoreUnavailableError";
  }
}

/**
 * `store_unusable`: a database store answers, but this program cannot use it as it is (a schema
 * newer than the program, a role without the privileges the store needs). `where` names the store
 * without credentials; the message says what is wrong and what to do. Nothing was applied.
 */
export class StoreUnusableError extends Error {
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(message);
    this.name = "StoreUnusableError";
  }
}

/**
 * `store_unusable` because the server's database role lacks a privilege (creating the store's
 * tables, or using them): the message names the role and the statement an owner runs to grant it.
 */
export class StorePermissionError extends StoreUnusableError {
  constructor(where: string, message: string) {
    super(where, message);
    this.name = "StorePermissionError";
  }
}

/**
 * `flow_corrupt`: the flow's stored text exists but cannot be decoded (not JSON, or a
 * value of the wrong kind). `file` is where it is stored (the store's `locate`, else the id).
 */
export class FlowCorruptError extends Error {
  constructor(
    readonly flowId: string,
    readonly file: string,
    readonly problem: string,
  ) {
    super(
      `Flow '${flowId}' cannot be restored: its file ${file} is corrupt (${problem}); move it away or delete it`,
    );
    this.name = "FlowCorruptError";
  }
}

/**
 * A write of a complete text without a delta (a copied flow, a test's setup): the one case where
 * the revision is read from the text, since nothing else says what it carries.
 */
export function textWrite(flowId: string, text: string, expectedRevision: number): StoreWrite {
  return {
    flowId,
    text: () => text,
    delta: null,
    finished: false,
    expectedRevision,
    revision: revisionOf(text),
  };
}
