// Starting the reader worker of `stratumc ui` (reader-worker.ts, dist/ui-reader.cjs). Shared by the
// server's reader (flow-reader.ts) and by the `ui` command, which starts it before it loads the
// server's own bundle (load-ui.ts): the worker's start, its bundle and the first page it builds
// ahead (FlowSource.prefetchNewest) then overlap that load, which a fresh server's page waits for.
import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";

/** What the worker needs to open the same store: the CLI's working directory and environment. */
export interface ReaderWorkerData {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The data of the worker reading the flows of the store `host` opens. */
export function readerData(host: ReaderWorkerData): ReaderWorkerData {
  return { cwd: host.cwd, env: { ...host.env } };
}

/** The worker on `file`, not keeping the process alive by itself. */
export function startReaderWorker(file: string, data: ReaderWorkerData): Worker {
  // Required here, not imported: this module is in the CLI's bundle, whose startup snapshot must
  // not load node:worker_threads (node 20 keeps state of it there that the started process cannot
  // use, and every worker it starts crashes; cli/fuzz-workers.ts does the same).
  const { Worker: WorkerThread } = createRequire(import.meta.url)(
    "node:worker_threads",
  ) as typeof import("node:worker_threads");
  const worker = new WorkerThread(file, { workerData: { ...data, stratumcUiReader: true } });
  worker.unref();
  return worker;
}
