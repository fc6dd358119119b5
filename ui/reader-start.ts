// Starting the reader worker of `stratumc ui` (reader-worker.ts, dist/ui-reader.cjs). Shared by the
// server's reader (flow-reader.ts) and by the `ui` command, which starts it before it loads the
// server's own bundle (load-ui.ts): the worker's start, its bundle and the first page it builds
// ahead (FlowSource.prefetchNewest) then overlap that load, which a fresh server's page waits for.
import { Worker } from "node:worker_threads";

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
  const worker = new Worker(file, { workerData: { ...data, stratumcUiReader: true } });
  worker.unref();
  return worker;
}
