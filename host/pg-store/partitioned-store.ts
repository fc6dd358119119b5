// The FlowStore on several PostgreSQL databases (docs/guides/team-store.md, "More than one
// database"): each flow lives in one of them, chosen by rendezvous hashing of its id
// (partition-hash.ts), so that servers configured with the same list agree without asking anyone.
// Each database is a complete single-database store (PgFlowStore, its schema and commit function
// unchanged); this class only routes:
//
// - read, token, remove and a commit whose flows are all in one database go to that database's store;
// - list merges every database's list (one database that cannot be reached fails the list);
// - watch hears every database (LISTEN, or polling where LISTEN is refused: polled-changes.ts);
// - a commit of flows in several databases (a flow and its sub-flow) runs the commit function in
//   one transaction per database, all open until every one of them has passed its checks, then
//   commits them one after the other, children's database first. Every precondition is checked
//   under every lock before anything is committed, so a stale or locked flow changes nothing; only
//   a crash or lost connection between two COMMITs leaves the first committed (a sub-flow whose
//   parent does not know it yet) and is answered as an unknown outcome.
// - every database is stamped with the list at first use (partition-layout.ts) and a server with
//   another list is refused, rather than looking for flows in the wrong database.
import { randomUUID } from "node:crypto";
import {
  assertSafeFlowId,
  batchFlowIds,
  type ChangeToken,
  FlowRemovedError,
  type FlowStore,
  isSafeFlowId,
  StaleStateError,
  type StoreBatch,
  type StoreChange,
  type StoredFlow,
  type StoredFlowInfo,
  StoreLockedError,
  StoreUnavailableError,
} from "../../interpreter/index";
import { partitionOf } from "./partition-hash";
import { checkLayout } from "./partition-layout";
import { describeError, errorFields, isConnectionError, PgDriver, sqlState } from "./pg-driver";
import { PgFlowStore, type PgStoreOptions } from "./pg-store";
import { acceptsListen, POLL_INTERVAL_MS, watchChanges } from "./polled-changes";
import { SQLSTATE_MISSING, SQLSTATE_STALE } from "./schema";
import { type PartitionUrl, parseStoreList } from "./store-list";
import { parseStoreUrl } from "./store-url";

export interface PartitionedStoreOptions extends PgStoreOptions {
  /** How often a partition without LISTEN is polled (default 1 s). */
  readonly pollIntervalMs?: number;
}

interface Partition {
  readonly url: PartitionUrl;
  readonly store: PgFlowStore;
  /** The URL without its password, for messages. */
  readonly where: string;
  /** Its own connection, for the layout check and commits across databases (opened on first use). */
  driver: PgDriver | null;
  probe: Promise<boolean> | null;
}

interface Group {
  readonly writes: StoreBatch["writes"][number][];
  readonly deletes: StoreBatch["deletes"][number][];
}

interface CommitRow extends Record<string, unknown> {
  o_flow_id: string;
  o_change: string;
}

const LOCK_TIMEOUT_MS = 2000;

export class PartitionedFlowStore implements FlowStore {
  /** The list for messages: every URL without its password. */
  readonly display: string;
  private readonly partitions: Partition[];
  private readonly names: string[];
  private readonly lockTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private opened: Promise<void> | null = null;
  /** The watches not stopped yet: closing the store stops them (a poll must not outlive it). */
  private readonly stops = new Set<() => void>();
  /** One per watch not stopped: resolved once every partition hears changes (a first poll read). */
  private readonly inPlace = new Set<Promise<void>>();

  constructor(location: string, options: PartitionedStoreOptions = {}) {
    const urls = parseStoreList(location);
    this.partitions = urls.map((url) => {
      const store = new PgFlowStore(url.location, options);
      return { url, store, where: store.url.display, driver: null, probe: null };
    });
    this.names = urls.map((u) => u.name);
    this.display = this.partitions.map((p) => p.where).join(" ");
    this.lockTimeoutMs = options.lockTimeoutMs ?? LOCK_TIMEOUT_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS;
  }

  /** The index in the list of the database that holds the flow. */
  partitionOf(flowId: string): number {
    return partitionOf(flowId, this.names);
  }

  /** The single-database store of one partition (tests, and `stratumc` commands that name one). */
  partition(index: number): PgFlowStore {
    return this.partitions[index]!.store;
  }

  /** Opens every database (schema, then the list's stamp); again after a failure. */
  open(): Promise<void> {
    if (this.opened === null) {
      const opening = Promise.all(
        this.partitions.map(async (p) => {
          await p.store.open();
          try {
            await checkLayout(this.driverOf(p), p.url.name, this.names, p.where);
          } catch (e) {
            throw isConnectionError(e) ? new StoreUnavailableError(p.where, describeError(e)) : e;
          }
        }),
      ).then(() => undefined);
      opening.catch(() => {
        this.opened = null;
      });
      this.opened = opening;
    }
    return this.opened;
  }

  locate(flowId: string): string {
    return this.home(flowId).store.locate(flowId);
  }

  async read(flowId: string): Promise<StoredFlow | null> {
    if (!isSafeFlowId(flowId)) return null;
    await this.open();
    return this.home(flowId).store.read(flowId);
  }

  async token(flowId: string): Promise<ChangeToken | null> {
    if (!isSafeFlowId(flowId)) return null;
    await this.open();
    return this.home(flowId).store.token(flowId);
  }

  /** The flow's database compares the token: one round trip for a check and a reload. */
  async readIfChanged(flowId: string, token: ChangeToken): Promise<StoredFlow | null | "unchanged"> {
    if (!isSafeFlowId(flowId)) return null;
    await this.open();
    return this.home(flowId).store.readIfChanged(flowId, token);
  }

  async remove(flowId: string): Promise<boolean> {
    if (!isSafeFlowId(flowId)) return false;
    await this.open();
    return this.home(flowId).store.remove(flowId);
  }

  async list(): Promise<readonly StoredFlowInfo[]> {
    await this.open();
    const lists = await Promise.all(this.partitions.map((p) => p.store.list()));
    // The file store's order (file names `<id>.json`, code points: ids are ASCII), as one database lists.
    return lists.flat().sort((a, b) => compare(`${a.flowId}.json`, `${b.flowId}.json`));
  }

  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    batchFlowIds(batch).forEach(assertSafeFlowId);
    await this.open();
    const groups = new Map<number, Group>();
    const groupOf = (flowId: string): Group => {
      const index = this.partitionOf(flowId);
      let group = groups.get(index);
      if (group === undefined) {
        group = { writes: [], deletes: [] };
        groups.set(index, group);
      }
      return group;
    };
    for (const w of batch.writes) groupOf(w.flowId).writes.push(w);
    for (const d of batch.deletes) groupOf(d.flowId).deletes.push(d);
    if (groups.size <= 1) {
      const only = [...groups.keys()][0];
      return only === undefined ? new Map() : this.partitions[only]!.store.commit(batch);
    }
    return this.commitAcross(groups, batch);
  }

  watch(listener: (change: StoreChange) => void): () => void {
    const readies: (() => void)[] = [];
    const inPlace = this.partitions.map(
      () =>
        new Promise<void>((resolve) => {
          readies.push(resolve);
        }),
    );
    const all = Promise.all(inPlace).then(() => undefined);
    this.inPlace.add(all);
    const stops = this.partitions.map((p, i) =>
      watchChanges(p.store, p.url.changes, () => this.probe(p), listener, this.pollIntervalMs, readies[i]),
    );
    const once = (): void => {
      this.stops.delete(once);
      this.inPlace.delete(all);
      for (const ready of readies) ready();
      for (const stop of stops) stop();
    };
    this.stops.add(once);
    return once;
  }

  /** Resolves once every watch hears changes: each partition listening, or its first poll read done. */
  async watching(): Promise<void> {
    await Promise.all(this.partitions.map((p) => p.store.watching()));
    await Promise.all(this.inPlace);
  }

  async close(): Promise<void> {
    for (const stop of [...this.stops]) stop();
    await Promise.all(
      this.partitions.map(async (p) => {
        await p.store.close();
        await p.driver?.end();
        p.driver = null;
      }),
    );
  }

  private home(flowId: string): Partition {
    return this.partitions[this.partitionOf(flowId)]!;
  }

  private driverOf(p: Partition): PgDriver {
    if (p.driver === null) {
      const url = parseStoreUrl(p.url.location);
      p.driver = new PgDriver({
        connectionString: url.connectionString,
        poolSize: 1,
        connectTimeoutMs: url.connectTimeoutMs,
        queryTimeoutMs: url.queryTimeoutMs,
      });
    }
    return p.driver;
  }

  private probe(p: Partition): Promise<boolean> {
    p.probe ??= acceptsListen(p.url.location);
    return p.probe;
  }

  /**
   * One transaction per database, opened in the reverse of the order they commit in and each
   * committed only after the ones opened after it passed: the database of the batch's first
   * write (children come before parents) commits first, deletes-only databases last. Every write
   * is a snapshot (the flow's whole text): such batches are rare (a sub-flow starts or ends), and
   * the single-database stores then read the flows' sizes again before their next delta.
   */
  private async commitAcross(
    groups: ReadonlyMap<number, Group>,
    batch: StoreBatch,
  ): Promise<ReadonlyMap<string, ChangeToken>> {
    // The groups were made in the batch's order, writes first: that is the commit order.
    const order = [...groups.keys()];
    const tokens = new Map<string, ChangeToken>();
    const commitId = randomUUID();
    const run = async (k: number): Promise<void> => {
      if (k < 0) return;
      const p = this.partitions[order[k]!]!;
      const group = groups.get(order[k]!)!;
      const lockIds = [...group.writes.map((w) => w.flowId), ...group.deletes.map((d) => d.flowId)].sort();
      await this.driverOf(p).transaction(async (tx) => {
        const rows = await tx.query<CommitRow>(
          `SELECT o_flow_id, o_change::text AS o_change
             FROM stratum.commit_flows($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            lockIds,
            group.writes.map((w) => w.flowId),
            group.writes.map((w) => w.expectedRevision),
            group.writes.map((w) => w.delta !== null),
            group.writes.map(() => null),
            group.writes.map((w) => w.text()),
            group.deletes.map((d) => d.flowId),
            group.deletes.map((d) => d.expectedRevision),
            commitId,
            this.lockTimeoutMs,
          ],
        );
        for (const row of rows) tokens.set(row.o_flow_id, row.o_change);
        await run(k - 1);
      });
    };
    try {
      await run(order.length - 1);
    } catch (e) {
      throw this.commitError(e, groups);
    }
    // In the batch's order, as a single database answers.
    return new Map(batch.writes.map((w) => [w.flowId, tokens.get(w.flowId)!]));
  }

  private commitError(e: unknown, groups: ReadonlyMap<number, Group>): unknown {
    const state = sqlState(e);
    const { detail, hint } = errorFields(e);
    const all = [...groups.values()].flatMap((g) => [...g.writes, ...g.deletes]);
    if (state === SQLSTATE_STALE && detail !== null) {
      const expected = all.find((c) => c.flowId === detail);
      return new StaleStateError(detail, Number(hint), expected?.expectedRevision ?? 0);
    }
    if (state === SQLSTATE_MISSING && detail !== null) return new FlowRemovedError(detail);
    if (state === "55P03") return new StoreLockedError(all.map((c) => c.flowId).sort()[0]!);
    if (!isConnectionError(e)) return e;
    // Which database failed is not known here: the list is named. Some of the databases may have
    // committed their part.
    return new StoreUnavailableError(this.display, describeError(e), true);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
