// The PostgreSQL store's tables and the function every commit calls (docs/guides/team-store.md). Versioned
// migrations, applied on start in one transaction under an advisory lock, so servers starting at
// once apply each migration exactly once; a database whose schema is newer than this program is
// refused (the program would misread it) with the versions named.
//
// One row per flow holds its snapshot (the flow file's text, docs/reference/runtime.md §14.1) and one row per
// delta since (the file store's journal entries), so a committing call writes O(change); the
// snapshot is rewritten under the same rule as the file store's (docs/design/durable-store.md).
import { StoreUnusableError } from "../../interpreter/index";
import { createDenied, isDenied, useDenied } from "./permission";
import type { Queryable } from "./pg-driver";

/** The schema version this program writes and reads. */
export const SCHEMA_VERSION = 1;

/** The channel every commit notifies: payload `<change> <flow id>` (change `-` for a removal). */
export const CHANGES_CHANNEL = "stratum_flows";

/** Any constant: the key of the advisory lock that serialises migrations. */
const MIGRATION_LOCK = 7_305_170_017;

/** SQLSTATE of a commit refused because a flow's stored revision is not the expected one. */
export const SQLSTATE_STALE = "SR001";
/** SQLSTATE of a write to a flow that existed when it was read and is no longer stored (removed by another process). */
export const SQLSTATE_MISSING = "SR002";

const MIGRATIONS: readonly string[] = [
  // 1: flows, deltas, change tokens and the commit function.
  `
  CREATE SCHEMA IF NOT EXISTS stratum;
  CREATE TABLE stratum.schema_version (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    version integer NOT NULL
  );
  INSERT INTO stratum.schema_version (version) VALUES (0);
  CREATE SEQUENCE stratum.changes;
  CREATE TABLE stratum.flows (
    flow_id text COLLATE "C" PRIMARY KEY,
    snapshot text NOT NULL,
    snapshot_revision bigint NOT NULL,
    snapshot_chars bigint NOT NULL,
    revision bigint NOT NULL,
    journal_chars bigint NOT NULL DEFAULT 0,
    change bigint NOT NULL,
    last_commit text NOT NULL,
    modified_ms bigint NOT NULL
  );
  CREATE TABLE stratum.deltas (
    flow_id text COLLATE "C" NOT NULL REFERENCES stratum.flows ON DELETE CASCADE,
    revision bigint NOT NULL,
    delta text NOT NULL,
    PRIMARY KEY (flow_id, revision)
  );
  -- One commit (docs/reference/runtime.md §14.3): locks every flow involved in the order given, checks every
  -- expected revision before anything is written (a flow read before and removed since is refused,
  -- never written again), then writes snapshots or appends deltas, deletes, and notifies. Returns
  -- each written flow's change token and sizes.
  CREATE FUNCTION stratum.commit_flows(
    lock_ids text[], ids text[], expected bigint[], must_exist boolean[], deltas text[],
    snapshots text[], delete_ids text[], delete_expected bigint[], commit_id text,
    lock_timeout_ms integer
  ) RETURNS TABLE (o_flow_id text, o_change bigint, o_snapshot_chars bigint, o_journal_chars bigint)
  LANGUAGE plpgsql AS $fn$
  DECLARE
    i integer;
    stored bigint;
    next_change bigint;
    now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  BEGIN
    PERFORM set_config('lock_timeout', lock_timeout_ms || 'ms', true);
    FOR i IN 1 .. coalesce(array_length(lock_ids, 1), 0) LOOP
      PERFORM pg_advisory_xact_lock(hashtextextended(lock_ids[i], 0));
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
      SELECT f.revision INTO stored FROM stratum.flows f WHERE f.flow_id = ids[i];
      IF stored IS NOT NULL AND stored <> expected[i] THEN
        RAISE EXCEPTION 'stale' USING ERRCODE = '${SQLSTATE_STALE}', DETAIL = ids[i], HINT = stored::text;
      END IF;
      IF stored IS NULL AND must_exist[i] THEN
        RAISE EXCEPTION 'missing' USING ERRCODE = '${SQLSTATE_MISSING}', DETAIL = ids[i];
      END IF;
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(delete_ids, 1), 0) LOOP
      SELECT f.revision INTO stored FROM stratum.flows f WHERE f.flow_id = delete_ids[i];
      IF stored IS NOT NULL AND stored <> delete_expected[i] THEN
        RAISE EXCEPTION 'stale' USING ERRCODE = '${SQLSTATE_STALE}', DETAIL = delete_ids[i], HINT = stored::text;
      END IF;
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
      next_change := nextval('stratum.changes');
      IF snapshots[i] IS NOT NULL THEN
        DELETE FROM stratum.deltas d WHERE d.flow_id = ids[i];
        INSERT INTO stratum.flows AS f (flow_id, snapshot, snapshot_revision, snapshot_chars, revision,
            journal_chars, change, last_commit, modified_ms)
          VALUES (ids[i], snapshots[i], expected[i] + 1, length(snapshots[i]), expected[i] + 1, 0,
            next_change, commit_id, now_ms)
          ON CONFLICT (flow_id) DO UPDATE SET snapshot = EXCLUDED.snapshot,
            snapshot_revision = EXCLUDED.snapshot_revision, snapshot_chars = EXCLUDED.snapshot_chars,
            revision = EXCLUDED.revision, journal_chars = 0, change = EXCLUDED.change,
            last_commit = EXCLUDED.last_commit, modified_ms = EXCLUDED.modified_ms;
      ELSE
        INSERT INTO stratum.deltas (flow_id, revision, delta) VALUES (ids[i], expected[i] + 1, deltas[i]);
        UPDATE stratum.flows f SET revision = expected[i] + 1,
            journal_chars = f.journal_chars + length(deltas[i]), change = next_change,
            last_commit = commit_id, modified_ms = now_ms
          WHERE f.flow_id = ids[i];
      END IF;
      PERFORM pg_notify('${CHANGES_CHANNEL}', next_change || ' ' || ids[i]);
      RETURN QUERY SELECT f.flow_id::text, f.change, f.snapshot_chars, f.journal_chars
        FROM stratum.flows f WHERE f.flow_id = ids[i];
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(delete_ids, 1), 0) LOOP
      DELETE FROM stratum.flows f WHERE f.flow_id = delete_ids[i];
      IF FOUND THEN
        PERFORM pg_notify('${CHANGES_CHANNEL}', '- ' || delete_ids[i]);
      END IF;
    END LOOP;
  END
  $fn$;
  `,
];

export class SchemaTooNewError extends StoreUnusableError {
  constructor(
    readonly found: number,
    readonly known: number,
    where: string,
  ) {
    super(
      where,
      `the flow store at ${where} has schema version ${found}, newer than this stratumc knows (${known}): upgrade stratumc on this machine`,
    );
    this.name = "SchemaTooNewError";
  }
}

/**
 * The stored schema version; 0 when the store has no tables yet. The catalog is read with a plain
 * query (this statement's snapshot), not to_regclass, whose cached lookup can miss tables another
 * server created since this connection last looked.
 */
async function storedVersion(db: Queryable): Promise<number> {
  const rows = await db.query<{ present: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
                      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                     WHERE n.nspname = 'stratum' AND c.relname = 'schema_version') AS present`,
  );
  if (rows[0]?.present !== true) return 0;
  const version = await db.query<{ version: number }>("SELECT version FROM stratum.schema_version");
  return version[0]?.version ?? 0;
}

/**
 * Brings the schema to SCHEMA_VERSION, or checks that it is there (no lock, no write: a server
 * whose role may only read and write rows starts against a current schema). Throws
 * SchemaTooNewError for a newer schema, StorePermissionError when the role may not create or
 * migrate the tables, or not read their version.
 */
export async function ensureSchema(
  db: Queryable & { transaction<T>(body: (tx: Queryable) => Promise<T>): Promise<T> },
  where: string,
): Promise<void> {
  let seen: number;
  try {
    seen = await storedVersion(db);
  } catch (e) {
    throw isDenied(e) ? await useDenied(db, where, e) : e;
  }
  if (seen > SCHEMA_VERSION) throw new SchemaTooNewError(seen, SCHEMA_VERSION, where);
  if (seen === SCHEMA_VERSION) return;
  try {
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const version = await storedVersion(tx); // another server may have migrated meanwhile
      if (version > SCHEMA_VERSION) throw new SchemaTooNewError(version, SCHEMA_VERSION, where);
      for (let v = version + 1; v <= SCHEMA_VERSION; v += 1) {
        await tx.query(MIGRATIONS[v - 1]!);
        await tx.query("UPDATE stratum.schema_version SET version = $1", [v]);
      }
    });
  } catch (e) {
    if (!isDenied(e)) throw e;
    const missing =
      seen === 0
        ? "has no tables yet"
        : `has schema version ${seen} and this stratumc needs ${SCHEMA_VERSION}`;
    throw await createDenied(db, where, e, missing);
  }
}
