// What PostgreSQL says about a load run, read through psql without blocking the event loop (the
// clients keep being served while the connections are sampled): connections to one database, WAL
// writes and flushes (pg_stat_wal, PostgreSQL 14+), commits, and the statements that took the most
// time (pg_stat_statements, when the server preloads it).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { type PgServer, postgresBinDir } from "../../test/support/postgres";

/** Runs SQL on `database` through psql, asynchronously; the unaligned, tuples-only output. */
export function psqlAsync(pg: PgServer, database: string, sql: string): Promise<string> {
  const url = new URL(pg.url(database));
  return new Promise((resolve, reject) => {
    execFile(
      join(postgresBinDir(), "psql"),
      [
        "-X",
        "-q",
        "-t",
        "-A",
        "-F",
        "\t",
        "-h",
        url.hostname,
        "-p",
        url.port,
        "-U",
        "postgres",
        "-d",
        database,
        "-c",
        sql,
      ],
      { encoding: "utf8" },
      (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(`psql: ${stderr}`))),
    );
  });
}

export function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

/** Connections to `database` other than the one asking. */
async function connections(pg: PgServer, database: string): Promise<number> {
  const out = await psqlAsync(
    pg,
    database,
    `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return Number(out.trim());
}

/** Samples the connections every `everyMs` until stopped; the samples. */
export function sampleConnections(pg: PgServer, database: string, everyMs: number): () => Promise<number[]> {
  const samples: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      samples.push(await connections(pg, database));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return samples;
  };
}

export interface WalCounters {
  readonly walWrite: number;
  readonly walSync: number;
  readonly walRecords: number;
  readonly walBytes: number;
  readonly commits: number;
}

export async function walCounters(pg: PgServer, database: string): Promise<WalCounters> {
  const out = await psqlAsync(
    pg,
    database,
    `SELECT w.wal_write, w.wal_sync, w.wal_records, w.wal_bytes, d.xact_commit
       FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = current_database()`,
  );
  const [walWrite, walSync, walRecords, walBytes, commits] = out.trim().split("\t").map(Number);
  return {
    walWrite: walWrite ?? Number.NaN,
    walSync: walSync ?? Number.NaN,
    walRecords: walRecords ?? Number.NaN,
    walBytes: walBytes ?? Number.NaN,
    commits: commits ?? Number.NaN,
  };
}

/** Waits (at most `ms`) until no other connection is open to `database`: their statistics are in. */
export async function untilDisconnected(pg: PgServer, database: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && (await connections(pg, database)) > 0)
    await new Promise((r) => setTimeout(r, 50));
}

export interface TopStatement {
  readonly query: string;
  readonly calls: number;
  readonly totalMs: number;
  readonly meanMs: number;
}

/** The statements of `database` that took the most time since the last reset, or [] without the extension. */
export async function topStatements(pg: PgServer, database: string, limit: number): Promise<TopStatement[]> {
  const out = await psqlAsync(
    pg,
    database,
    `SELECT calls, total_exec_time, mean_exec_time, regexp_replace(left(query, 90), '\\s+', ' ', 'g')
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       ORDER BY total_exec_time DESC LIMIT ${limit}`,
  ).catch(() => "");
  return out
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [calls, total, mean, query] = line.split("\t");
      return { query: query ?? "", calls: Number(calls), totalMs: Number(total), meanMs: Number(mean) };
    });
}
