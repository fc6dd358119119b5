// `stratumc lsp`: the language server on standard input and output. This module is the entry of
// the separate bundle dist/lsp.cjs (cli/lsp/load-server.ts loads it only for this command). The
// same bundle, started as a worker thread with the check worker's workerData, is a check worker
// of a huge document (off-thread-document.ts).
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { isCheckWorkerData, serveCheckWorker } from "./check-worker";
import { startLanguageServer } from "./server";
import { inThreadWorkers, threadWorkers, type WorkerFactory } from "./workers";

declare const STRATUMC_BUNDLED: boolean | undefined;

if (!isMainThread && parentPort !== null && isCheckWorkerData(workerData)) serveCheckWorker(parentPort);

/** Serves until the client closes the connection or sends `exit` (the library then ends the process). */
export function serveLspStdio(version: string): void {
  // Standard output carries the protocol: anything a dependency logs goes to standard error.
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${args.map(String).join(" ")}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  startLanguageServer(connection, { name: "stratumc", version, offThread: { workers: checkWorkers() } });
}

/** Worker threads running this bundle; from the sources (no bundle to start), the same code in this thread. */
function checkWorkers(): WorkerFactory {
  const bundled = typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED;
  return bundled ? threadWorkers(fileURLToPath(import.meta.url)) : inThreadWorkers();
}
