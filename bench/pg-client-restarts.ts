// What each PostgreSQL client library (`pg`, `postgres`) does when the server restarts under it:
// the error of a query in flight, of a query while the server is down, whether the old pool works
// again, and whether a listener hears notifications again (part of the choice of client,
// docs/guides/team-store.md; printed by pg-client-bench.ts's describePgClient).
import pg from "pg";
import postgres from "postgres";
import { type PgServer, startPostgres } from "../test/support/postgres";

export interface RestartReport {
  readonly library: string;
  /** The error of a query in flight when the server stopped ("message (code)"), or "resolved". */
  readonly inFlight: string;
  /** A query on the old pool while the server is down. */
  readonly whileDown: string;
  /** A query on the old pool once the server is back. */
  readonly afterRestart: string;
  /** Whether a NOTIFY after the restart reached the listener set up before it, and when. */
  readonly listenerAfterRestart: string;
  /** Errors the library raised outside any query (pool/client 'error' events). */
  readonly stray: readonly string[];
}

function describeError(e: unknown): string {
  if (!(e instanceof Error)) return `non-error ${String(e)}`;
  const code = (e as Error & { code?: unknown }).code;
  return `${e.constructor.name}: ${e.message}${code === undefined ? "" : ` (code ${String(code)})`}`;
}

async function settled(p: Promise<unknown>): Promise<string> {
  const t0 = performance.now();
  const took = () => ` after ${(performance.now() - t0).toFixed(0)} ms`;
  try {
    await p;
    return `resolved${took()}`;
  } catch (e) {
    return describeError(e) + took();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** NOTIFYs through psql until the listener hears one (or `ms` pass). */
async function heardWithin(
  server: PgServer,
  channel: string,
  heard: () => boolean,
  ms: number,
): Promise<string> {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    server.psql(`NOTIFY ${channel}, 'after-restart'`);
    await sleep(100);
    if (heard()) return `yes, within ${(performance.now() - t0).toFixed(0)} ms`;
  }
  return `no (nothing in ${ms} ms)`;
}

/**
 * For each library: a query in flight (`pg_sleep`) when the server stops (fast shutdown), a query
 * on the old pool while it is down, one after it is back, and whether LISTEN survives the restart.
 */
export async function probePgClientRestarts(): Promise<RestartReport[]> {
  const reports: RestartReport[] = [];
  for (const library of ["pg", "postgres"] as const) {
    const server = await startPostgres();
    try {
      const url = server.url();
      const stray: string[] = [];
      let heard = false;
      let end: () => Promise<void>;
      let query: (text: string) => Promise<unknown>;
      if (library === "pg") {
        const pool = new pg.Pool({ connectionString: url, max: 2 });
        pool.on("error", (e) => stray.push(`pool 'error' event: ${describeError(e)}`));
        const listener = new pg.Client({ connectionString: url });
        listener.on("error", (e) => stray.push(`listener client 'error' event: ${describeError(e)}`));
        listener.on("end", () => stray.push("listener client 'end' event"));
        await listener.connect();
        listener.on("notification", () => {
          heard = true;
        });
        await listener.query("LISTEN probe");
        query = (text) => pool.query(text);
        end = async () => {
          await listener.end().catch(() => undefined);
          await pool.end().catch(() => undefined);
        };
      } else {
        const sql = postgres(url, { max: 2, onnotice: () => undefined, connect_timeout: 2 });
        let listens = 0;
        await sql.listen(
          "probe",
          () => {
            heard = true;
          },
          () => {
            listens += 1;
            if (listens > 1) stray.push(`listen's onlisten called again (re-LISTEN #${listens - 1})`);
          },
        );
        query = (text) => sql.unsafe(text);
        end = () => sql.end({ timeout: 2 });
      }
      // Two pooled connections: one stays idle while the other runs the in-flight query.
      await Promise.all([query("SELECT pg_sleep(0.05)"), query("SELECT pg_sleep(0.05)")]);
      const inFlightQuery = settled(query("SELECT pg_sleep(30)"));
      await sleep(200);
      server.stop();
      const inFlight = await inFlightQuery;
      const whileDown = await settled(query("SELECT 1"));
      server.start();
      let afterRestart = await settled(query("SELECT 1"));
      if (!afterRestart.startsWith("resolved")) {
        const second = await settled(query("SELECT 1"));
        afterRestart += `; then again: ${second}`;
      }
      const listenerAfterRestart = await heardWithin(server, "probe", () => heard, 5_000);
      await end();
      reports.push({ library, inFlight, whileDown, afterRestart, listenerAfterRestart, stray });
    } finally {
      server.destroy();
    }
  }
  return reports;
}
