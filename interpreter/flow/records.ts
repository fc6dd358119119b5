// Trace record constructors (docs/reference/runtime.md §11.1): keys in the documented order, round and
// round_start_step_id taken from the flow.

import type { GateRecord, PolicyRecord, SkipRecord, StepRecord, TraceRecord } from "../base/flow-state";
import type { Wire, WireObject } from "../wire/wire";
import type { FlowRun } from "./run";

export function skipRecord(run: FlowRun, stepId: string, reason: string): SkipRecord {
  return {
    step_id: stepId,
    skip_reason: reason,
    type: "skip",
    round: run.state.round,
    round_start_step_id: run.state.round_start_step_id,
  };
}

export function policyRecord(
  run: FlowRun,
  stepId: string,
  effectivePolicy: PolicyRecord["effective_policy"],
  rationale: string,
): PolicyRecord {
  return {
    step_id: stepId,
    effective_policy: effectivePolicy,
    resolved_outcome: "approve",
    rationale,
    type: "policy",
    round: run.state.round,
    round_start_step_id: run.state.round_start_step_id,
  };
}

export function gateRecord(
  run: FlowRun,
  stepId: string,
  outcome: GateRecord["outcome"],
  rationale: string,
  resolvedBy: GateRecord["resolved_by"],
  durationMs: number,
  resolvedByName: string | null = null,
): GateRecord {
  return {
    step_id: stepId,
    outcome,
    rationale,
    resolved_by: resolvedBy,
    duration_ms: durationMs,
    type: "gate",
    round: run.state.round,
    round_start_step_id: run.state.round_start_step_id,
    ...(resolvedByName === null ? {} : { resolved_by_name: resolvedByName }),
  };
}

export function stepRecord(
  run: FlowRun,
  fields: Pick<
    StepRecord,
    "step_id" | "function_name" | "attempts" | "duration_ms" | "agent" | "step_mode" | "child_flow_id"
  >,
  /** The result cache key when the step was answered from the cache (result-cache.ts). */
  cacheKey: string | null = null,
): StepRecord {
  return {
    step_id: fields.step_id,
    function_name: fields.function_name,
    attempts: fields.attempts,
    duration_ms: fields.duration_ms,
    type: "step",
    round: run.state.round,
    round_start_step_id: run.state.round_start_step_id,
    agent: fields.agent,
    step_mode: fields.step_mode,
    child_flow_id: fields.child_flow_id,
    cache_hit: cacheKey !== null,
    cache_key: cacheKey,
  };
}

/** Records as wire values (they are plain objects with fixed keys); a copy of the list. */
export function traceWire(records: readonly TraceRecord[]): readonly Wire[] {
  return records.map((r) => r as unknown as WireObject);
}
