// How a witness's call reads to a person, in the CLI's pretty output and in the fuzzer's own
// messages (what looped in a cut run). Type imports only, so the CLI can use it without loading
// the fuzzer (cli/fuzzer-loader.ts).
import type { WireCall } from "./run/session";

/** A call as a person reads it in a witness: `review`, `sign_off revise`, `skip lint`, … */
export function callWord(call: WireCall): string {
  const a = call.arguments;
  const step = typeof a.step_id === "string" ? a.step_id : "?";
  switch (call.tool) {
    case "stratum_plan":
      return "plan";
    case "stratum_step_done":
      return step;
    case "stratum_gate_resolve":
      return `${step} ${typeof a.outcome === "string" ? a.outcome : "?"}`;
    case "stratum_skip_step":
      return `skip ${step}`;
    case "stratum_iteration_start":
      return `${step} iterate`;
    case "stratum_iteration_report":
      return `${step} report`;
    case "stratum_iteration_abort":
      return `${step} abort`;
    case "stratum_parallel_done":
      return `${step} tasks`;
    case "stratum_judge":
      return `${step} judge`;
    case "stratum_resume":
      return "resume";
    case "stratum_audit":
      return "audit";
  }
}
