// The PostgreSQL store's address (docs/guides/team-store.md): a `postgres://` or `postgresql://` URL in
// libpq's form, so TLS (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`), user, password, host,
// port and database come from it as a team's other tools read them. `connect_timeout` is libpq's
// (whole seconds; ours default to 5), `query_timeout` ours (whole seconds a statement may go
// without an answer, default 10), as is `pool_size` (connections per server, default 4): all three
// are taken out before the URL reaches the driver, which reads them its own way.
// The URL's password never appears in a message: `display` is the URL as host/redact.ts shows it.
import { redactUrl } from "../redact";

export interface StoreUrl {
  /** The URL the driver connects with (our parameters removed). */
  readonly connectionString: string;
  /** Connections one server opens at most (the listener's connection not counted). */
  readonly poolSize: number;
  /** How long connecting (or waiting for a pooled connection) may take. */
  readonly connectTimeoutMs: number;
  /** How long a statement may go without an answer (a frozen server, a silent network). */
  readonly queryTimeoutMs: number;
  /** The URL for messages: no password, no query parameters. */
  readonly display: string;
}

export const DEFAULT_POOL_SIZE = 4;
const MAX_POOL_SIZE = 100;
export const DEFAULT_CONNECT_TIMEOUT_S = 5;
export const DEFAULT_QUERY_TIMEOUT_S = 10;
const MAX_TIMEOUT_S = 3600;

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
    throw new StoreUrlError(`the store URL must start with postgres:// (${redactUrl(url.toString())})`);
  const poolSize = wholeParameter(url, "pool_size", MAX_POOL_SIZE, DEFAULT_POOL_SIZE);
  const connectTimeoutS = wholeParameter(url, "connect_timeout", MAX_TIMEOUT_S, DEFAULT_CONNECT_TIMEOUT_S);
  const queryTimeoutS = wholeParameter(url, "query_timeout", MAX_TIMEOUT_S, DEFAULT_QUERY_TIMEOUT_S);
  return {
    connectionString: url.toString(),
    poolSize,
    connectTimeoutMs: connectTimeoutS * 1000,
    queryTimeoutMs: queryTimeoutS * 1000,
    display: redactUrl(url.toString()),
  };
}

/** A whole-number parameter from 1 to `max` (taken out of the URL), or `fallback` when absent. */
function wholeParameter(url: URL, name: string, max: number, fallback: number): number {
  const text = url.searchParams.get(name);
  if (text === null) return fallback;
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || n < 1 || n > max) {
    throw new StoreUrlError(
      `${name} must be a whole number from 1 to ${max}, not '${text}' (${redactUrl(url.toString())})`,
    );
  }
  url.searchParams.delete(name);
  return n;
}
