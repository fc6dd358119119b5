// A store location naming several PostgreSQL databases (docs/guides/team-store.md, "More than one
// database"): the URLs separated by white space, e.g.
// `STRATUM_STORE="postgres://db1.example/flows postgres://db2.example/flows"`. White space, because
// a URL cannot contain it unescaped while a comma is part of libpq's multi-host URLs.
//
// Each URL may carry `changes=auto|listen|poll` (taken out before the URL reaches the store):
// how a server hears of other servers' commits. `listen` is LISTEN/NOTIFY; `poll` reads the list of
// flows' change tokens every second, for databases without LISTEN (docs/design/scale.md lists what
// else such engines lack); `auto` (the default) listens and switches to polling when a probe finds
// LISTEN refused.
import { redactUrl } from "../redact";
import { isPostgresUrl, StoreUrlError } from "./store-url";

export type ChangesMode = "auto" | "listen" | "poll";

export interface PartitionUrl {
  /** The URL for the single-database store (our `changes` parameter removed). */
  readonly location: string;
  /**
   * The partition's name for the hash (host, port and database: `db1.example:5432/flows`): the
   * same database reached under another host name counts as another partition.
   */
  readonly name: string;
  readonly changes: ChangesMode;
}

/** The locations of a white-space separated list (one for a plain URL or directory). */
function splitStoreList(location: string): string[] {
  return location.split(/\s+/).filter((part) => part !== "");
}

/** True when the location names more than one database. */
export function isStoreList(location: string): boolean {
  return splitStoreList(location).length > 1;
}

/** One URL's partition name and `changes` mode; the URL without that parameter. */
export function partitionUrl(text: string): PartitionUrl {
  if (!isPostgresUrl(text)) {
    throw new StoreUrlError(
      `every store in a list must be a postgres:// URL, not ${redactUrl(text)} (a list of databases is separated by spaces)`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreUrlError(`the store URL is not a valid postgres:// URL: ${redactUrl(text)}`);
  }
  const mode = url.searchParams.get("changes") ?? "auto";
  if (mode !== "auto" && mode !== "listen" && mode !== "poll") {
    throw new StoreUrlError(`changes must be auto, listen or poll, not '${mode}' (${redactUrl(text)})`);
  }
  url.searchParams.delete("changes");
  const database =
    decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || "postgres";
  return {
    location: url.toString(),
    name: `${url.hostname.toLowerCase()}:${url.port === "" ? "5432" : url.port}/${database}`,
    changes: mode,
  };
}

/** The partitions of a list, refusing a database named twice (its flows would be in two places). */
export function parseStoreList(location: string): PartitionUrl[] {
  const partitions = splitStoreList(location).map(partitionUrl);
  const seen = new Set<string>();
  for (const p of partitions) {
    if (seen.has(p.name)) throw new StoreUrlError(`the store list names the database ${p.name} twice`);
    seen.add(p.name);
  }
  return partitions;
}
