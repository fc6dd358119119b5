// What each database of a partitioned store remembers of the list it belongs to, so that a server
// started with another list is refused before it reads or writes a flow: with another set of
// databases, flows would be looked for (and created) in the wrong one, and a flow could then exist
// twice. The first server to open an empty database stamps it with the list; a database that
// already holds flows from before it was partitioned is refused too (most of them would hash
// elsewhere). The stamp is the set of partition names, not their order (the hash ignores order).
import { StoreUnusableError } from "../../interpreter/index";
import { isConnectionError, type PgDriver, sqlState } from "./pg-driver";

/** Any constant: the key of the advisory lock under which a database is stamped. */
const LAYOUT_LOCK = 7_305_170_018;

interface LayoutRow extends Record<string, unknown> {
  self: string;
  members: string[];
}

/** The list a database is stamped with does not match the one configured. */
export class PartitionLayoutError extends StoreUnusableError {
  constructor(where: string, message: string) {
    super(where, message);
    this.name = "PartitionLayoutError";
  }
}

/** Checks (or, on an empty database, records) that `self` is one of exactly `members`. */
export async function checkLayout(
  db: PgDriver,
  self: string,
  members: readonly string[],
  where: string,
): Promise<void> {
  const wanted = [...members].sort();
  let row = await readLayout(db);
  if (row === undefined) {
    row = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [LAYOUT_LOCK]);
      await tx.query("CREATE SCHEMA IF NOT EXISTS stratum_partition");
      await tx.query(
        `CREATE TABLE IF NOT EXISTS stratum_partition.layout (
           singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
           self text NOT NULL,
           members text[] NOT NULL)`,
      );
      const found = await tx.query<LayoutRow>("SELECT self, members FROM stratum_partition.layout");
      if (found[0] !== undefined) return found[0];
      const flows = await tx.query<{ n: number }>("SELECT count(*)::float8 AS n FROM stratum.flows");
      const n = flows[0]?.n ?? 0;
      if (n > 0) {
        throw new PartitionLayoutError(
          where,
          `the database ${self} holds ${n} flow${n === 1 ? "" : "s"} stored before it was one of a list of databases: in the list most of them would be looked for in another database. Use it alone (one URL), or copy its flows into databases new to the list with \`stratumc flows migrate --from <its URL> --to "<the list>"\``,
        );
      }
      await tx.query("INSERT INTO stratum_partition.layout (self, members) VALUES ($1, $2)", [self, wanted]);
      return { self, members: wanted };
    });
  }
  const stored = [...row.members].sort();
  if (row.self !== self || stored.join(" ") !== wanted.join(" ")) {
    throw new PartitionLayoutError(
      where,
      `the database ${self} was set up as ${row.self}, one of the list [${stored.join(", ")}], and the store list now names [${wanted.join(", ")}]: flows would be looked for in the wrong database. Start with the earlier list, or copy the flows into databases new to the list with \`stratumc flows migrate\``,
    );
  }
}

/** The stamp, or undefined when the database has none yet (no table: it was never partitioned). */
async function readLayout(db: PgDriver): Promise<LayoutRow | undefined> {
  try {
    return (await db.query<LayoutRow>("SELECT self, members FROM stratum_partition.layout"))[0];
  } catch (e) {
    if (isConnectionError(e)) throw e;
    // 42P01: no such table; 3F000: no such schema.
    if (sqlState(e) === "42P01" || sqlState(e) === "3F000") return undefined;
    throw e;
  }
}
