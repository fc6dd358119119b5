// Which flow store a location names (docs/guides/team-store.md): a postgres:// URL for the PostgreSQL
// store, or a directory used as STRATUM_HOME. The composition root (compose.ts) and `stratumc flows
// migrate` open their stores through it.
import { resolve } from "node:path";
import type { FlowStore } from "../interpreter/index";
import { FileFlowStore, type FileStoreOptions } from "./file-store/file-store";
import { PgFlowStore } from "./pg-store/pg-store";
import { checkStoreLocation, isPostgresUrl } from "./pg-store/store-url";

/** A store with where it is, for messages (a directory, or a URL without its password). */
export interface LocatedStore {
  readonly store: FlowStore;
  readonly where: string;
}

/**
 * The store a location names: a postgres:// URL (connected on first use), or a directory used as
 * STRATUM_HOME (relative to `cwd`, opened with `options`).
 */
export function storeAt(location: string, cwd: string, options: FileStoreOptions = {}): LocatedStore {
  checkStoreLocation(location);
  if (isPostgresUrl(location)) {
    const store = new PgFlowStore(location);
    return { store, where: store.url.display };
  }
  const home = resolve(cwd, location);
  return { store: new FileFlowStore(home, options), where: home };
}
