// How check workers are started. In the shipped server (dist/lsp.cjs) a check worker is the same
// bundle started as a worker thread with a tagged workerData (serve-stdio.ts serves it); from the
// sources (tests) or wherever no bundle is at hand, the same worker code runs in this thread behind
// a MessageChannel: identical messages and order, no parallelism.
import { MessageChannel, Worker } from "node:worker_threads";
import { CHECK_WORKER_TAG, type FromWorker, serveCheckWorker, type ToWorker } from "./check-worker";
import type { CheckFunction } from "./checked-documents";

export interface CheckWorker {
  post(message: ToWorker): void;
  onMessage(listener: (message: FromWorker) => void): void;
  /** The worker ended on its own (crashed, out of memory): it is replaced. */
  onExit(listener: () => void): void;
  terminate(): void;
}

export type WorkerFactory = () => CheckWorker;

/** Worker threads running `script` (the language server's bundle). */
export function threadWorkers(script: string): WorkerFactory {
  return () => {
    // Its standard output must never reach the protocol channel (the parent's stdout).
    const worker = new Worker(script, { workerData: { role: CHECK_WORKER_TAG }, stdout: true });
    worker.stdout.pipe(process.stderr);
    worker.on("error", (e) => process.stderr.write(`stratumc lsp: check worker failed: ${e.message}\n`));
    worker.unref();
    let terminated = false;
    return {
      post: (message) => worker.postMessage(message),
      onMessage: (listener) => worker.on("message", (m: FromWorker) => listener(m)),
      onExit: (listener) => {
        worker.on("exit", () => {
          if (!terminated) listener();
        });
      },
      terminate: () => {
        terminated = true;
        void worker.terminate();
      },
    };
  };
}

/** The worker code in this thread (tests inject `check` to count or slow checks). */
export function inThreadWorkers(check?: CheckFunction): WorkerFactory {
  return () => {
    const { port1, port2 } = new MessageChannel();
    serveCheckWorker(
      {
        postMessage: (message) => port2.postMessage(message),
        on: (_event, listener) => port2.on("message", listener),
      },
      check,
    );
    // Never what keeps the process alive (a listener refs a port: unref after adding it).
    port2.unref();
    return {
      post: (message) => port1.postMessage(message),
      onMessage: (listener) => {
        port1.on("message", (m: FromWorker) => listener(m));
        port1.unref();
      },
      onExit: () => {},
      terminate: () => {
        port1.close();
        port2.close();
      },
    };
  };
}
