// The completion payload (docs/reference/runtime.md §12) and finishing a flow.
import type { Response } from "../wire/wire";
import type { Clock } from "./ports";
import { traceWire } from "./records";
import type { FlowRun } from "./run";

/**
 * `{status, flow_id, output, trace, total_duration_ms}`: status is terminal_status or "complete"
 * (pass `status` to force a literal one, docs/reference/runtime.md §6.1, docs/reference/runtime.md §6.4); output is the stored output of the last step
 * in execution order whose output is not null.
 */
export function completionPayload(run: FlowRun, clock: Clock, status?: string): Response {
  return {
    status: status ?? run.state.terminal_status ?? "complete",
    flow_id: run.state.flow_id,
    output: lastOutput(run),
    trace: traceWire(run.state.records),
    total_duration_ms: totalDurationMs(run, clock),
  };
}

/** `{status: "killed", flow_id, trace, total_duration_ms}` (plus `reason` when given, docs/reference/runtime.md §6.3). */
export function killedPayload(run: FlowRun, clock: Clock, reason?: string): Response {
  return {
    status: "killed",
    flow_id: run.state.flow_id,
    reason,
    trace: traceWire(run.state.records),
    total_duration_ms: totalDurationMs(run, clock),
  };
}

/** Moves the flow to its end (`current_idx` = number of steps). */
export function finish(run: FlowRun): void {
  run.state.current_idx = run.flow.steps.length;
}

/** Integer milliseconds since the flow started (or was restored) in this process. */
export function totalDurationMs(run: FlowRun, clock: Clock): number {
  return Math.max(0, Math.trunc(clock.monoMs() - run.timing.startedAt));
}

function lastOutput(run: FlowRun): Response["output"] {
  const id = outputStepOf(run);
  return id === null ? null : (run.state.step_outputs.get(id) ?? null);
}

/** The step whose stored output is the flow's output: the last in step order with a non-null one. */
export function outputStepOf(run: FlowRun): string | null {
  const steps = run.flow.steps;
  for (let i = steps.length - 1; i >= 0; i--) {
    const id = steps[i]!.id;
    const out = run.state.step_outputs.get(id);
    if (out !== undefined && out !== null) return id;
  }
  return null;
}
