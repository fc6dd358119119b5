// The one module that knows the PostgreSQL client library (`pg`, chosen by measurement:
// docs/guides/team-store.md): a pool of connections, transactions on one connection, and a listener
// connection that comes back by itself after the server does. Everything above it sees rows and
// classified errors only.
import type pg from "pg";
import { loadSeparateBundle } from "../separate-bundle";

type PgLibrary = typeof import("./pg-library")["pg"];

let library: Promise<PgLibrary> | null = null;

/** The client library, loaded on first use (dist/pg.cjs in the shipped CLI). */
function loadPg(): Promise<PgLibrary> {
  library ??= loadSeparateBundle("pg.cjs", () => import("./pg-library")).then((m) => m.pg);
  return library;
}

type Row = Record<string, unknown>;

/** What runs SQL: the pool or one transaction's connection. */
export interface Queryable {
  /**
   * `name` makes it a prepared statement, parsed once per connection (the calls every tool call
   * makes: about an eighth faster than parsing the text each time, bench/pg-client-bench.ts).
   */
  query<R extends Row = Row>(text: string, params?: readonly unknown[], name?: string): Promise<R[]>;
}

export interface PgDriverOptions {
  readonly connectionString: string;
  readonly poolSize: number;
  /** How long a connection attempt may take before the call is answered `store_unavailable`. */
  readonly connectTimeoutMs: number;
  /**
   * How long a statement may wait for an answer: a frozen server or a partitioned network never
   * answers at all, and the call must be answered `store_unavailable` rather than hang.
   */
  readonly queryTimeoutMs: number;
}

export class PgDriver implements Queryable {
  private pool: pg.Pool | null = null;
  private ended = false;

  constructor(private readonly options: PgDriverOptions) {}

  private async getPool(): Promise<pg.Pool> {
    if (this.pool !== null) return this.pool;
    const { Pool } = await loadPg();
    if (this.pool !== null) return this.pool;
    if (this.ended) throw new Error("the flow store was closed");
    const pool = new Pool({
      connectionString: this.options.connectionString,
      max: this.options.poolSize,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      query_timeout: this.options.queryTimeoutMs,
      keepAlive: true,
      application_name: "stratumc",
      // A CLI command ends when its work is done, with idle connections still open.
      allowExitOnIdle: true,
    });
    // A pooled connection that the server closes while idle (a restart) is dropped by the pool;
    // without a listener its error would end the process.
    pool.on("error", () => undefined);
    this.pool = pool;
    return pool;
  }

  /**
   * Runs `body` inside BEGIN … COMMIT on one connection. Errors of `connect` are marked as
   * happening before anything was sent (`ConnectFailure`), so callers know nothing was applied.
   */
  async transaction<T>(body: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const tx: Queryable = {
        query: async <R extends Row>(text: string, params: readonly unknown[] = []) =>
          (await client.query<R>(text, params as unknown[])).rows,
      };
      const out = await body(tx);
      await client.query("COMMIT");
      return out;
    } catch (e) {
      broken = isConnectionError(e);
      if (!broken) await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      client.release(broken);
    }
  }

  /**
   * One statement on a connection checked out for it: a connection that cannot be made (refused,
   * TLS, authentication) fails as a ConnectFailure, so callers know nothing was sent.
   */
  async query<R extends Row = Row>(
    text: string,
    params: readonly unknown[] = [],
    name?: string,
    timeoutMs?: number,
  ): Promise<R[]> {
    const client = await this.connect();
    let broken = false;
    try {
      // `query_timeout` per statement is the driver's (client.js), missing from its types.
      const config: pg.QueryConfig & { query_timeout?: number } = {
        text,
        values: params as unknown[],
        ...(name === undefined ? {} : { name }),
        ...(timeoutMs === undefined ? {} : { query_timeout: timeoutMs }),
      };
      return (await client.query<R>(config)).rows;
    } catch (e) {
      broken = isConnectionError(e);
      throw e;
    } finally {
      client.release(broken);
    }
  }

  /** Listens on a channel with a connection of its own (not from the pool). */
  listen(channel: string, handlers: ListenHandlers): Listener {
    return new Listener(this.options, channel, handlers);
  }

  async end(): Promise<void> {
    this.ended = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }

  private async connect(): Promise<pg.PoolClient> {
    const pool = await this.getPool();
    try {
      return await pool.connect();
    } catch (e) {
      throw new ConnectFailure(e);
    }
  }
}

/** A connection that could not be made: nothing was sent. */
export class ConnectFailure extends Error {
  constructor(override readonly cause: unknown) {
    super(describeError(cause));
    this.name = "ConnectFailure";
  }
}

export interface ListenHandlers {
  onNotification(payload: string): void;
  /** The listener was down and is listening again: notifications may have been missed. */
  onResumed(): void;
}

/** Retries after a lost connection, doubling up to this. */
const MAX_RECONNECT_MS = 2000;

/** A LISTEN connection that reconnects (and says so) until it is closed. */
export class Listener {
  private client: pg.Client | null = null;
  private closed = false;
  /** A connection attempt is under way (late events of old connections must not start another). */
  private opening = false;
  private retryMs = 100;
  private timer: NodeJS.Timeout | null = null;
  /** Resolves when the first LISTEN is in place (or failed: then it retries in the background). */
  readonly ready: Promise<void>;

  constructor(
    private readonly options: PgDriverOptions,
    private readonly channel: string,
    private readonly handlers: ListenHandlers,
  ) {
    this.ready = this.open(false);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async open(resumed: boolean): Promise<void> {
    this.opening = true;
    const { Client } = await loadPg();
    const client = new Client({
      connectionString: this.options.connectionString,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      // LISTEN too: an opening that never ends would keep the listener from ever reconnecting.
      query_timeout: this.options.queryTimeoutMs,
      keepAlive: true,
      application_name: "stratumc listener",
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (n) => {
      if (n.channel === this.channel) this.handlers.onNotification(n.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch {
      this.opening = false;
      await client.end().catch(() => undefined);
      this.lost(client);
      return;
    }
    this.opening = false;
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 100;
    if (resumed) this.handlers.onResumed();
  }

  private lost(client: pg.Client): void {
    if (this.opening || (this.client !== null && this.client !== client)) return; // a late event
    this.client = null;
    if (this.closed || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.open(true);
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RECONNECT_MS);
  }
}

/** SQLSTATE classes and codes that mean the connection, not the statement, failed. */
const CONNECTION_STATES = /^(08|57P0[1-3]|53300)/;
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** True when the error is the connection's (refused, reset, server shutting down), not the SQL's. */
export function isConnectionError(e: unknown): boolean {
  if (e instanceof ConnectFailure) return true;
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || CONNECTION_STATES.test(code))) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/i.test(
    e.message,
  );
}

/** The error's message, with its code when it has one; never a connection string. */
export function describeError(e: unknown): string {
  if (e instanceof ConnectFailure) return e.message;
  if (e instanceof AggregateError && e.errors.length > 0) return describeError(e.errors[0]);
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  const message = e.message === "" ? e.name : e.message;
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

/** The SQLSTATE of a server error, or null. */
export function sqlState(e: unknown): string | null {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** A server error's DETAIL and HINT fields (the commit function puts the flow id and revision there). */
export function errorFields(e: unknown): { detail: string | null; hint: string | null } {
  if (!(e instanceof Error)) return { detail: null, hint: null };
  const { detail, hint } = e as { detail?: unknown; hint?: unknown };
  return {
    detail: typeof detail === "string" ? detail : null,
    hint: typeof hint === "string" ? hint : null,
  };
}
