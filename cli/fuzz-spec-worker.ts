// The entry of dist/fuzz-spec-worker.cjs: a worker thread of `stratumc fuzz --jobs` and
// `check --deep` (cli/fuzz-workers.ts). It fuzzes one spec at a time, as many as it is sent, and
// ends when its port is closed. A job that throws ends the worker: the pool reports that spec.
import { isMainThread, parentPort } from "node:worker_threads";
import { runSpecJob, type SpecJobRequest } from "./fuzz-spec-job";

const port = isMainThread ? null : parentPort;
if (port !== null) {
  port.on("message", (request: SpecJobRequest) => {
    runSpecJob(request, (message) => port.postMessage(message)).catch((e: unknown) => {
      // Rethrown outside the promise: the worker's `error` event carries it to the pool.
      setImmediate(() => {
        throw e;
      });
    });
  });
}
