// The PostgreSQL store's address (docs/team-store.md): a `postgres://` or `postgresql://` URL in
// libpq's form, so TLS (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`), user, password, host,
// port and database come from it as a team's other tools read them. Our own parameter,
// `pool_size` (connections per server, default 4), is taken out before the URL reaches the driver.
// The URL's password never appears in a message: `display` is the URL as host/redact.ts shows it.
import { redactUrl } from "../redact";

export interface StoreUrl {
  /** The URL the driver connects with (our parameters removed). */
  readonly connectionString: string;
  /** Connections one server opens at most (the listener's connection not counted). */
  readonly poolSize: number;
  /** The URL for messages: no password, no query parameters. */
  readonly display: string;
}

export const DEFAULT_POOL_SIZE = 4;
const MAX_POOL_SIZE = 100;

/** A store URL that cannot be used (its message never contains the password). */
export class StoreUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreUrlError";
  }
}

/** A store location names PostgreSQL when it is a postgres:// or postgresql:// URL. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Refuses a location that is a URL of another scheme (a typo such as `postgress://`, or
 * `mysql://`): taken for a directory, it would be created with the password in its path, and the
 * path shown in messages.
 */
export function checkStoreLocation(location: string): void {
  if (!isPostgresUrl(location) && /^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    throw new StoreUrlError(`the store must be a postgres:// URL or a directory, not ${redactUrl(location)}`);
  }
}

/** Parses a store URL; throws an Error with a message that never contains the password. */
export function parseStoreUrl(text: string): StoreUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreUrlError(`the store URL is not a valid postgres:// URL: ${redactUrl(text)}`);
  }
  if (!isPostgresUrl(text))
    throw new StoreUrlError(`the store URL must start with postgres:// (${redactUrl(text)})`);
  let poolSize = DEFAULT_POOL_SIZE;
  const pool = url.searchParams.get("pool_size");
  if (pool !== null) {
    const n = Number(pool);
    if (!/^[0-9]+$/.test(pool) || n < 1 || n > MAX_POOL_SIZE) {
      throw new StoreUrlError(
        `pool_size must be a whole number from 1 to ${MAX_POOL_SIZE}, not '${pool}' (${redactUrl(text)})`,
      );
    }
    poolSize = n;
    url.searchParams.delete("pool_size");
  }
  return { connectionString: url.toString(), poolSize, display: redactUrl(url.toString()) };
}
