// A database role without a privilege the store needs (SQLSTATE 42501, insufficient_privilege):
// one line that says what is missing, which role, and the statement an owner of the database runs
// to grant it — never an internal error. The role and the database are the server's own
// (current_user, current_database()), asked after the refusal: the URL may name neither.
import { StorePermissionError } from "../../interpreter/index";
import { type Queryable, sqlState } from "./pg-driver";

/** SQLSTATE of a statement refused for want of a privilege. */
const SQLSTATE_DENIED = "42501";

export function isDenied(e: unknown): boolean {
  return sqlState(e) === SQLSTATE_DENIED;
}

/**
 * Creating or migrating the store's tables was refused. `missing` says what the store lacks
 * ("has no tables yet", "has schema version 1 and this stratumc needs 2").
 */
export async function createDenied(
  db: Queryable,
  where: string,
  e: unknown,
  missing: string,
): Promise<StorePermissionError> {
  const { role, database } = await whoAmI(db);
  const reason = reasonOf(e);
  const grant = /\bschema\b/.test(reason)
    ? `GRANT USAGE, CREATE ON SCHEMA stratum TO ${ident(role)}`
    : `GRANT CREATE ON DATABASE ${ident(database)} TO ${ident(role)}`;
  return new StorePermissionError(
    where,
    `the flow store at ${where} ${missing} and role ${ident(role)} may not create them (${reason}): an owner of the database can run ${grant}; then retry (or create the tables as another role and grant this one their use: docs/guides/team-store.md, "Roles and privileges")`,
  );
}

/** Reading or writing the store's tables was refused. */
export async function useDenied(db: Queryable, where: string, e: unknown): Promise<StorePermissionError> {
  const { role } = await whoAmI(db);
  const who = ident(role);
  return new StorePermissionError(
    where,
    `role ${who} may not use the tables of the flow store at ${where} (${reasonOf(e)}): an owner of the database can run GRANT USAGE ON SCHEMA stratum TO ${who}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA stratum TO ${who}; GRANT USAGE ON ALL SEQUENCES IN SCHEMA stratum TO ${who}; then retry`,
  );
}

async function whoAmI(db: Queryable): Promise<{ role: string; database: string }> {
  try {
    const rows = await db.query<{ role: string; database: string }>(
      "SELECT current_user::text AS role, current_database()::text AS database",
    );
    if (rows[0] !== undefined) return rows[0];
  } catch {
    // the names are for the message only
  }
  return { role: "<this role>", database: "<this database>" };
}

/** The server's message (`permission denied for database x`): no connection string in it. */
function reasonOf(e: unknown): string {
  return e instanceof Error && e.message !== "" ? e.message : "permission denied";
}

/** An SQL identifier, quoted. */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
