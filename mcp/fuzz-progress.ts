// What a `stratum_fuzz` job's progress (fuzz-job.ts) tells an MCP client: the random runs done of
// the run budget (`runs` per flow × the flows explored), and a line saying where the job is. The
// total is known once the spec is checked (the flows are counted then); the exhaustive paths the
// fuzzer explores first are in the line, not in the count.
import type { FuzzJobProgress } from "./fuzz-job";
import type { Progress } from "./progress";

export function fuzzJobProgress(message: FuzzJobProgress, runsPerFlow: number): Progress {
  if (message.phase === "checking") return { progress: 0, message: "checking the spec" };
  const where =
    message.flow === null
      ? `finishing the report of ${message.flows} flow(s)`
      : `exploring flow '${message.flow}' (${message.flowsDone} of ${message.flows} flow(s) done)`;
  return {
    progress: message.runs,
    total: runsPerFlow * message.flows,
    message: `${where}: ${message.runs} run(s), ${message.paths} path(s), ${message.findings} finding(s)`,
  };
}
