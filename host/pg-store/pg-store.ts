// The FlowStore on PostgreSQL: every flow of a team in one database,
// shared by any number of servers. The state machine does not change: the engine reads, checks
// change tokens and commits batches exactly as over the file store.
//
// - A commit is one statement: the function `stratum.commit_flows` (schema.ts) locks the flows
//   (advisory transaction locks, sorted ids), checks every expected revision, writes, notifies,
//   all in the statement's transaction. A stale writer gets StaleStateError and nothing is written.
// - Layout as the file store's journal: a snapshot row per flow and a delta row per committing
//   call, the snapshot rewritten when the flow is new or finished or its deltas have grown as large
//   as it (at least 256 KiB). What this server last wrote or read of each flow's sizes decides that
//   without a query.
// - The change token is a sequence number taken by every write, so a flow removed and written
//   again never repeats a token.
// - A lost connection, or a statement without an answer within the timeout, answers
//   StoreUnavailableError; a missing privilege StorePermissionError. When it was lost during a commit, the commit
//   is looked up by its id once the database answers again: applied (success), not applied
//   (retried once), or unknown (said so).
// - `watch` listens to the commit notifications (LISTEN/NOTIFY) on a connection of its own.
import { randomUUID } from "node:crypto";
import {
  assertSafeFlowId,
  batchFlowIds,
  type ChangeToken,
  deltaToAppend,
  FlowRemovedError,
  type FlowStore,
  isSafeFlowId,
  MIN_SNAPSHOT_SIZE,
  mayAppend,
  RecentFlows,
  StaleStateError,
  type StoreBatch,
  type StoreChange,
  type StoredFlow,
  type StoredFlowInfo,
  StoreLockedError,
  StoreUnavailableError,
  type StoreWrite,
  sequenceGap,
} from "../../interpreter/index";
import { isDenied, useDenied } from "./permission";
import {
  ConnectFailure,
  describeError,
  errorFields,
  isConnectionError,
  type Listener,
  PgDriver,
  sqlState,
} from "./pg-driver";
import { CHANGES_CHANNEL, ensureSchema, SQLSTATE_MISSING, SQLSTATE_STALE } from "./schema";
import { parseStoreUrl, type StoreUrl } from "./store-url";

export interface PgStoreOptions {
  /** The journal size from which a snapshot is written (default 256 KiB, as the file store). */
  readonly minSnapshotChars?: number;
  /** How long a commit waits for another server's lock on a flow (default 2 s, as the file store). */
  readonly lockTimeoutMs?: number;
  /** How long connecting may take before a call is answered `store_unavailable` (default: the URL's `connect_timeout`, else 5 s). */
  readonly connectTimeoutMs?: number;
  /** How long a statement may go without an answer (default: the URL's `query_timeout`, else 10 s). */
  readonly queryTimeoutMs?: number;
}

/** What this server last saw of a flow's rows. */
interface Known {
  readonly token: ChangeToken;
  readonly revision: number;
  readonly snapshotChars: number;
  readonly journalChars: number;
}

interface FlowRow extends Record<string, unknown> {
  snapshot: string;
  snapshot_revision: number;
  snapshot_chars: number;
  revision: number;
  journal_chars: number;
  change: string;
  modified_ms: number;
  deltas: string[];
  delta_revisions: number[];
}

interface CommitRow extends Record<string, unknown> {
  o_flow_id: string;
  o_change: string;
  o_snapshot_chars: number;
  o_journal_chars: number;
}

export class PgFlowStore implements FlowStore {
  readonly url: StoreUrl;
  private readonly db: PgDriver;
  private readonly minSnapshotChars: number;
  private readonly lockTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly queryTimeoutMs: number;
  private readonly known = new RecentFlows<Known>();
  private schemaReady: Promise<void> | null = null;
  private listener: Listener | null = null;
  private readonly watchers = new Set<(change: StoreChange) => void>();

  constructor(location: string, options: PgStoreOptions = {}) {
    this.url = parseStoreUrl(location);
    this.minSnapshotChars = options.minSnapshotChars ?? MIN_SNAPSHOT_SIZE;
    this.lockTimeoutMs = options.lockTimeoutMs ?? 2000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? this.url.connectTimeoutMs;
    this.queryTimeoutMs = options.queryTimeoutMs ?? this.url.queryTimeoutMs;
    this.db = new PgDriver({
      connectionString: this.url.connectionString,
      poolSize: this.url.poolSize,
      connectTimeoutMs: this.connectTimeoutMs,
      queryTimeoutMs: this.queryTimeoutMs,
    });
  }

  /**
   * Connects and creates or migrates the schema (once; again after a failure). Every other method
   * waits for it, so calling it is optional: servers call it at start to report a problem early.
   * Rejects with StoreUnavailableError, SchemaTooNewError or StorePermissionError.
   */
  open(): Promise<void> {
    if (this.schemaReady === null) {
      const ready = ensureSchema(this.db, this.url.display).catch((e: unknown) => {
        this.schemaReady = null;
        throw this.unavailable(e, false) ?? e;
      });
      this.schemaReady = ready;
    }
    return this.schemaReady;
  }

  locate(flowId: string): string {
    return `${this.url.display} (flow ${flowId})`;
  }

  async read(flowId: string): Promise<StoredFlow | null> {
    if (!isSafeFlowId(flowId)) return null;
    const rows = await this.run(() =>
      this.db.query<FlowRow>(
        `SELECT ${FLOW_COLUMNS}, ${flowParts("true")} FROM stratum.flows f WHERE f.flow_id = $1`,
        [flowId],
        "stratum_read",
      ),
    );
    return this.stored(flowId, rows[0]);
  }

  /**
   * One statement: the token is compared in the database, and the snapshot and deltas come back
   * only when it differs (a held flow costs the same round trip as `token`, a changed one saves
   * the second).
   */
  async readIfChanged(flowId: string, token: ChangeToken): Promise<StoredFlow | null | "unchanged"> {
    if (!isSafeFlowId(flowId)) return null;
    const rows = await this.run(() =>
      this.db.query<FlowRow>(
        `SELECT ${FLOW_COLUMNS}, ${flowParts("f.change::text <> $2")} FROM stratum.flows f WHERE f.flow_id = $1`,
        [flowId, token],
        "stratum_read_changed",
      ),
    );
    if (rows[0]?.change === token) return "unchanged";
    return this.stored(flowId, rows[0]);
  }

  /** The stored flow of a row of `read` (null: none), remembering what this server saw of it. */
  private stored(flowId: string, row: FlowRow | undefined): StoredFlow | null {
    if (row === undefined) {
      this.known.forget(flowId);
      return null;
    }
    this.remember(flowId, {
      token: row.change,
      revision: row.revision,
      snapshotChars: row.snapshot_chars,
      journalChars: row.journal_chars,
    });
    const problem = deltaSequenceProblem(row);
    return {
      text: row.snapshot,
      deltas: row.deltas,
      revision: row.revision,
      token: row.change,
      deltaSource: this.locate(flowId),
      modifiedMs: row.modified_ms,
      ...(problem === null ? {} : { deltaProblem: problem }),
    };
  }

  async token(flowId: string): Promise<ChangeToken | null> {
    if (!isSafeFlowId(flowId)) return null;
    const rows = await this.run(() =>
      this.db.query<{ change: string }>(
        "SELECT change::text AS change FROM stratum.flows WHERE flow_id = $1",
        [flowId],
        "stratum_token",
      ),
    );
    return rows[0]?.change ?? null;
  }

  async list(): Promise<readonly StoredFlowInfo[]> {
    const rows = await this.run(() =>
      this.db.query<{ flow_id: string; modified_ms: number; change: string }>(
        // The file store's order (file names: `<id>.json`), so both list alike.
        `SELECT flow_id, modified_ms::float8 AS modified_ms, change::text AS change
           FROM stratum.flows ORDER BY flow_id || '.json'`,
      ),
    );
    return rows.map((r) => ({ flowId: r.flow_id, modifiedMs: r.modified_ms, token: r.change }));
  }

  async remove(flowId: string): Promise<boolean> {
    if (!isSafeFlowId(flowId)) return false;
    this.known.forget(flowId);
    const rows = await this.run(() =>
      this.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('lock_timeout', $1, true)", [`${this.lockTimeoutMs}ms`]);
        await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [flowId]);
        const deleted = await tx.query("DELETE FROM stratum.flows WHERE flow_id = $1 RETURNING flow_id", [
          flowId,
        ]);
        if (deleted.length > 0) await tx.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, `- ${flowId}`]);
        return deleted;
      }),
    );
    return rows.length > 0;
  }

  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    const lockIds = batchFlowIds(batch);
    lockIds.forEach(assertSafeFlowId);
    await this.open();
    await this.learnSizes(batch.writes);
    // A commit whose outcome a lost connection hid, and that did not happen, is sent once more.
    for (let round = 0; ; round += 1) {
      const commitId = randomUUID();
      const planned = batch.writes.map((w) => this.plan(w));
      let rows: CommitRow[];
      try {
        rows = await this.db.query<CommitRow>(
          `SELECT o_flow_id, o_change::text AS o_change, o_snapshot_chars::float8 AS o_snapshot_chars,
                  o_journal_chars::float8 AS o_journal_chars
             FROM stratum.commit_flows($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            lockIds,
            batch.writes.map((w) => w.flowId),
            batch.writes.map((w) => w.expectedRevision),
            // A write with a delta is of a flow the engine read from the store: it must still be there.
            batch.writes.map((w) => w.delta !== null),
            planned.map((p) => p.delta),
            planned.map((p) => p.snapshot),
            batch.deletes.map((d) => d.flowId),
            batch.deletes.map((d) => d.expectedRevision),
            commitId,
            this.lockTimeoutMs,
          ],
          "stratum_commit",
        );
      } catch (e) {
        for (const id of lockIds) this.known.forget(id);
        const state = sqlState(e);
        const { detail, hint } = errorFields(e);
        if (state === SQLSTATE_STALE && detail !== null) {
          const expected = [...batch.writes, ...batch.deletes].find((c) => c.flowId === detail);
          throw new StaleStateError(detail, Number(hint), expected?.expectedRevision ?? 0);
        }
        if (state === SQLSTATE_MISSING && detail !== null) throw new FlowRemovedError(detail);
        if (state === "55P03") throw new StoreLockedError(lockIds[0]!);
        if (isDenied(e)) throw await useDenied(this.db, this.url.display, e);
        if (!isConnectionError(e)) throw e;
        if (e instanceof ConnectFailure) throw this.unavailable(e, false)!;
        const outcome = await this.outcomeOf(commitId, batch);
        if (outcome === "applied") return this.afterUnseenCommit(batch);
        if (outcome === "not applied" && round === 0) continue;
        throw this.unavailable(e, outcome === "unknown")!;
      }
      const tokens = new Map<string, ChangeToken>();
      for (const [i, w] of batch.writes.entries()) {
        const row = rows[i]!;
        tokens.set(w.flowId, row.o_change);
        // A finished flow is not written again (a later write reads it first): nothing is kept of it.
        if (w.finished) {
          this.known.forget(w.flowId);
          continue;
        }
        this.remember(w.flowId, {
          token: row.o_change,
          revision: w.expectedRevision + 1,
          snapshotChars: row.o_snapshot_chars,
          journalChars: row.o_journal_chars,
        });
      }
      for (const d of batch.deletes) this.known.forget(d.flowId);
      return tokens;
    }
  }

  watch(listener: (change: StoreChange) => void): () => void {
    this.watchers.add(listener);
    if (this.listener === null) {
      this.listener = this.db.listen(CHANGES_CHANNEL, {
        onNotification: (payload) => this.notify(parseNotification(payload)),
        onResumed: () => this.notify({ flowId: null, token: null }),
      });
    }
    return () => {
      this.watchers.delete(listener);
      if (this.watchers.size === 0 && this.listener !== null) {
        void this.listener.close();
        this.listener = null;
      }
    };
  }

  /** Resolves once `watch`'s listener is listening (tests, and a page's first load). */
  async watching(): Promise<void> {
    await this.listener?.ready;
  }

  async close(): Promise<void> {
    this.watchers.clear();
    await this.listener?.close();
    this.listener = null;
    await this.db.end();
  }

  /** Snapshot or delta for one write (the file store's rule, in characters: the texts are ASCII). */
  private plan(w: StoreWrite): { delta: string | null; snapshot: string | null } {
    const known = this.known.get(w.flowId);
    const sizes = known === undefined ? null : { snapshot: known.snapshotChars, journal: known.journalChars };
    const delta = deltaToAppend(w, sizes, deltaChars, this.minSnapshotChars);
    if (delta !== null) return { delta, snapshot: null };
    return { delta: null, snapshot: w.text() };
  }

  /** Reads the sizes of written flows this store does not remember at their expected revision. */
  private async learnSizes(writes: readonly StoreWrite[]): Promise<void> {
    const unknown = writes
      .filter((w) => mayAppend(w) && this.known.get(w.flowId)?.revision !== w.expectedRevision)
      .map((w) => w.flowId);
    if (unknown.length === 0) return;
    const rows = await this.run(() =>
      this.db.query<{
        flow_id: string;
        change: string;
        revision: number;
        snapshot_chars: number;
        journal_chars: number;
      }>(
        `SELECT flow_id, change::text AS change, revision::float8 AS revision, snapshot_chars::float8 AS snapshot_chars,
                journal_chars::float8 AS journal_chars
           FROM stratum.flows WHERE flow_id = ANY($1)`,
        [unknown],
      ),
    );
    for (const r of rows) {
      this.remember(r.flow_id, {
        token: r.change,
        revision: r.revision,
        snapshotChars: r.snapshot_chars,
        journalChars: r.journal_chars,
      });
    }
    const found = new Set(rows.map((r) => r.flow_id));
    const removed = unknown.find((id) => !found.has(id));
    if (removed !== undefined) throw new FlowRemovedError(removed);
  }

  /**
   * After a connection was lost during a commit: whether it was applied, read once the database
   * answers. The commit's id is stored with every flow it writes; a batch of deletes only is
   * applied when the flows are gone. The look-up waits for its answer no longer than for a
   * connection: a database that stopped answering is not waited for a second statement timeout.
   */
  private async outcomeOf(
    commitId: string,
    batch: StoreBatch,
  ): Promise<"applied" | "not applied" | "unknown"> {
    try {
      const first = batch.writes[0];
      if (first !== undefined) {
        const rows = await this.db.query<{ last_commit: string; revision: number }>(
          "SELECT last_commit, revision::float8 AS revision FROM stratum.flows WHERE flow_id = $1",
          [first.flowId],
          undefined,
          this.connectTimeoutMs,
        );
        const row = rows[0];
        if (row?.last_commit === commitId) return "applied";
        // Not ours as the last commit: not applied if the flow is where we found it (or absent, for
        // a new one); if another commit came after, ours may have come first.
        return row === undefined || row.revision === first.expectedRevision ? "not applied" : "unknown";
      }
      const ids = batch.deletes.map((d) => d.flowId);
      const rows = await this.db.query(
        "SELECT 1 FROM stratum.flows WHERE flow_id = ANY($1)",
        [ids],
        undefined,
        this.connectTimeoutMs,
      );
      return rows.length === 0 ? "applied" : "not applied";
    } catch {
      return "unknown";
    }
  }

  /** The tokens of a commit that was applied although its answer was lost. */
  private async afterUnseenCommit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    const tokens = new Map<string, ChangeToken>();
    for (const w of batch.writes) {
      const token = await this.token(w.flowId);
      if (token !== null) tokens.set(w.flowId, token);
    }
    return tokens;
  }

  /**
   * Runs a read after the schema is ready, turning a lost or refused connection into
   * StoreUnavailableError and a missing privilege into StorePermissionError.
   */
  private async run<T>(body: () => Promise<T>): Promise<T> {
    await this.open();
    try {
      return await body();
    } catch (e) {
      if (isDenied(e)) throw await useDenied(this.db, this.url.display, e);
      throw this.unavailable(e, false) ?? e;
    }
  }

  private unavailable(e: unknown, unknownOutcome: boolean): StoreUnavailableError | null {
    if (e instanceof StoreUnavailableError) return e;
    if (!isConnectionError(e)) return null;
    return new StoreUnavailableError(this.url.display, this.reasonOf(e), unknownOutcome);
  }

  /** The driver's reason, with its timeouts said in our words and the URL parameter that sets them. */
  private reasonOf(e: unknown): string {
    const text = describeError(e);
    if (/Query read timeout/i.test(text))
      return `no answer within ${this.queryTimeoutMs / 1000} s (query_timeout)`;
    if (/connection timeout|timeout exceeded when trying to connect|timeout expired/i.test(text))
      return `no connection within ${this.connectTimeoutMs / 1000} s (connect_timeout)`;
    return text;
  }

  private remember(flowId: string, known: Known): void {
    this.known.remember(flowId, known);
  }

  private notify(change: StoreChange | null): void {
    if (change === null) return;
    if (change.flowId === null) this.known.clear();
    else if (this.known.get(change.flowId)?.token !== change.token) this.known.forget(change.flowId);
    for (const w of this.watchers) w(change);
  }
}

/** A flow row's bookkeeping columns (every read). */
const FLOW_COLUMNS = `f.snapshot_revision::float8 AS snapshot_revision, f.snapshot_chars::float8 AS snapshot_chars,
  f.revision::float8 AS revision, f.journal_chars::float8 AS journal_chars, f.change::text AS change,
  f.modified_ms::float8 AS modified_ms`;

/** The snapshot and the deltas, read only when `wanted` holds (CASE evaluates the branch it takes). */
function flowParts(wanted: string): string {
  const deltas = (column: string) =>
    `CASE WHEN ${wanted} THEN ARRAY(SELECT ${column} FROM stratum.deltas d WHERE d.flow_id = f.flow_id ORDER BY d.revision) END`;
  return `CASE WHEN ${wanted} THEN f.snapshot END AS snapshot, ${deltas("d.delta")} AS deltas,
  ${deltas("d.revision::float8")} AS delta_revisions`;
}

/** What a delta adds to the flow's delta rows: its characters (the texts are ASCII). */
function deltaChars(delta: string): number {
  return delta.length;
}

/** `<change> <flow id>` (change `-` for a removal); null for anything else. */
function parseNotification(payload: string): StoreChange | null {
  const space = payload.indexOf(" ");
  if (space <= 0) return null;
  const change = payload.slice(0, space);
  const flowId = payload.slice(space + 1);
  return { flowId, token: change === "-" ? null : change };
}

/** Why the stored deltas do not follow the snapshot one revision at a time, or null. */
function deltaSequenceProblem(row: FlowRow): string | null {
  for (const [i, revision] of row.delta_revisions.entries()) {
    const gap = sequenceGap(revision, row.snapshot_revision + i);
    if (gap !== null) return `delta ${i + 1} ${gap}`;
  }
  const last = row.delta_revisions.length === 0 ? row.snapshot_revision : row.delta_revisions.at(-1)!;
  return last === row.revision ? null : `the deltas end at revision ${last}, the flow is at ${row.revision}`;
}
