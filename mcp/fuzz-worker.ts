// The entry of dist/fuzz-worker.cjs: a worker thread that runs one job of the MCP server — a
// `stratum_fuzz` (fuzz-job.ts) or the check of a big spec (check-job.ts) — and ends. The server
// (worker-jobs.ts) starts one per job and terminates it at the job's deadline; this bundle carries
// the checker, the interpreter and the fuzzer, not the server.
import { isMainThread, parentPort } from "node:worker_threads";
import { type JobRequest, runJob } from "./worker-jobs";

const port = isMainThread ? null : parentPort;
if (port !== null) {
  port.once("message", (request: JobRequest) => {
    void runJob(request, (message) => port.postMessage(message)).then(() => port.close());
  });
}
