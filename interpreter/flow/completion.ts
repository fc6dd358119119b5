// The completion payload (runtime.md §12) and finishing a flow.
import type { Response } from "../wire/wire";
import type { Clock } from "./ports";
import type { FlowRun } from "./run";

/**
 * `{status, flow_id, output, trace, total_duration_ms}`: status is terminal_status or "complete"
 * (pass `status` to force a literal one, §6.1/§6.4); output is the stored output of the last step
 * in execution order whose output is not null.
 */
export function completionPayload(run: FlowRun, clock: Clock, status?: string): Response {
  void run;
  void clock;
  void status;
  throw new Error("completionPayload: not implemented yet (A1)");
}

/** `{status: "killed", flow_id, trace, total_duration_ms}` (plus `reason` when given, §6.3). */
export function killedPayload(run: FlowRun, clock: Clock, reason?: string): Response {
  void run;
  void clock;
  void reason;
  throw new Error("killedPayload: not implemented yet (A1)");
}

/** Moves the flow to its end (`current_idx` = number of steps). */
export function finish(run: FlowRun): void {
  run.state.current_idx = run.flow.steps.length;
}

/** Integer milliseconds since the flow started (or was restored) in this process. */
export function totalDurationMs(run: FlowRun, clock: Clock): number {
  return Math.max(0, Math.trunc(clock.monoMs() - run.timing.startedAt));
}
