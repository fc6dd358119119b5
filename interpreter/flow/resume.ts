// `stratum_resume` (docs/reference/runtime.md §13, DIV-RESUME-FINISHED).
import type { FlowArgs } from "../api";
import { flowNotFound } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { budgetStopped } from "./budget-stop";
import { completionPayload, totalDurationMs } from "./completion";
import { isFinished } from "./current";
import { traceWire } from "./records";
import { advance } from "./step-done";
import type { Tx } from "./tx";

export function resume(tx: Tx, args: FlowArgs): Response {
  const seen = tx.read(args.flow_id);
  if (seen === null) return flowNotFound(args.flow_id);
  // A flow its budget stopped answers its status only, as the reference (a cap an earlier charge
  // reached marks it now).
  const stopped = budgetStopped(tx, args.flow_id);
  if (stopped !== null) return { status: "budget_exhausted", flow_id: seen.state.flow_id };
  if (seen.state.terminal_status !== null) {
    return {
      status: seen.state.terminal_status,
      flow_id: seen.state.flow_id,
      trace: traceWire(seen.state.records),
      total_duration_ms: totalDurationMs(seen, tx.clock),
    };
  }
  if (isFinished(seen)) return completionPayload(seen, tx.clock);
  const run = tx.edit(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const at = run.flow.steps[run.state.current_idx];
  return advance(tx, run, at === undefined ? {} : { keepTasksOf: at.id });
}
