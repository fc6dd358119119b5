// The entry of dist/fuzz-worker.cjs: a worker thread that runs one `stratum_fuzz` job
// (fuzz-job.ts) and ends. The server (fuzz-jobs.ts) starts one per job and terminates it at the
// job's deadline; this bundle carries the checker, the interpreter and the fuzzer, not the server.
import { isMainThread, parentPort } from "node:worker_threads";
import { type FuzzJobRequest, runFuzzJob } from "./fuzz-job";

const port = isMainThread ? null : parentPort;
if (port !== null) {
  port.once("message", (request: FuzzJobRequest) => {
    void runFuzzJob(request, (message) => port.postMessage(message)).then(() => port.close());
  });
}
