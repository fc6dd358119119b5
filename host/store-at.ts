// Which flow store a location names (docs/guides/team-store.md): a postgres:// URL for the PostgreSQL
// store, several separated by spaces for flows partitioned across databases, or a directory used as
// STRATUM_HOME. The composition root (compose.ts) and `stratumc flows
// migrate` open their stores through it.
import { resolve } from "node:path";
import type { FlowStore } from "../interpreter/index";
import { FileFlowStore, type FileStoreOptions } from "./file-store/file-store";
import { ChangesFlowStore } from "./pg-store/changes-store";
import { PartitionedFlowStore } from "./pg-store/partitioned-store";
import { PgFlowStore } from "./pg-store/pg-store";
import { isStoreList, partitionUrl } from "./pg-store/store-list";
import { checkStoreLocation, isPostgresUrl } from "./pg-store/store-url";

/** A store with where it is, for messages (a directory, or a URL without its password). */
export interface LocatedStore {
  readonly store: FlowStore;
  readonly where: string;
}

/**
 * The store a location names: a postgres:// URL (connected on first use), a list of them separated
 * by white space (flows partitioned by id), or a directory used as STRATUM_HOME (relative to `cwd`,
 * opened with `options`). A URL with `changes=listen` is the plain PgFlowStore; otherwise its
 * `watch` polls where LISTEN is refused (store-list.ts).
 */
export function storeAt(location: string, cwd: string, options: FileStoreOptions = {}): LocatedStore {
  checkStoreLocation(location);
  if (isPostgresUrl(location)) {
    if (isStoreList(location)) {
      const store = new PartitionedFlowStore(location);
      return { store, where: store.display };
    }
    const url = partitionUrl(location.trim());
    if (url.changes === "listen") {
      const store = new PgFlowStore(url.location);
      return { store, where: store.url.display };
    }
    const store = new ChangesFlowStore(url);
    return { store, where: store.url.display };
  }
  const home = resolve(cwd, location);
  return { store: new FileFlowStore(home, options), where: home };
}
