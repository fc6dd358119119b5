// The objects printed by `query flows`, `query flow <id>` and `query gates` (docs/reference/runtime.md §21.1), built
// from restored flows. Pure: the caller loads the flows (query/load-runs.ts) and prints the JSON.
// Key order is the documented one; `_schema_version` comes first so that consumers can dispatch on it.
// The shapes are the reference's published ones (stratum-mcp/contracts/query-flows.v1,
// flow-state.v1, query-gates.v1; recorded in test/conformance/reference-schemas): closed objects,
// so nothing may be added here.

import type { TraceRecord } from "../base/flow-state";
import { currentStep, isFinished } from "../flow/current";
import type { FlowRun } from "../flow/run";
import { persistedStatus } from "../flow/status";
import type { Response, WireObject } from "../wire/wire";

export const QUERY_SCHEMA_VERSION = "1";

/**
 * Whether `query flows` lists the flow without `--all`: the flows the reference still has on disk,
 * that is every flow that is neither finished nor stopped by retries_exhausted (the reference
 * deletes those; we keep them, DIV-KEEP-FINISHED). A killed flow still running the cleanup steps of
 * a named `on_kill` is listed, with the status `killed`, as the reference lists it. So the default
 * listing only has the statuses `running`, `awaiting_gate` and `killed`, all in query-flows.v1's
 * enum; `exhausted` (our own status) appears only with `--all`.
 */
export function listedByDefault(run: FlowRun): boolean {
  const step = currentStep(run);
  if (step === null) return false;
  if (step.kind === "gate") return true;
  // The current step at its attempt limit: only after retries_exhausted (as persistedStatus).
  return (run.state.attempts.get(step.id) ?? 0) < step.retries;
}

/**
 * The element of `query flows --all` for a flow file that cannot be decoded: status
 * `corrupt` (outside query-flows.v1's enum, like `exhausted`, so only with `--all`), nothing known
 * but the id, and `problem` saying where and what is wrong.
 */
export function corruptFlowSummary(flowId: string, file: string, problem: string): Response {
  return {
    _schema_version: QUERY_SCHEMA_VERSION,
    flow_id: flowId,
    flow_name: "",
    status: "corrupt",
    current_step_id: null,
    round: 0,
    step_count: 0,
    completed_steps: 0,
    terminal_status: null,
    synthetic: false,
    problem: `${file}: ${problem}`,
  };
}

/** One element of `query flows`. */
export function flowSummary(run: FlowRun): Response {
  const { state } = run;
  return {
    _schema_version: QUERY_SCHEMA_VERSION,
    flow_id: state.flow_id,
    flow_name: state.flow_name,
    status: persistedStatus(run),
    current_step_id: currentStep(run)?.id ?? null,
    round: state.round,
    step_count: run.flow.steps.length,
    completed_steps: state.current_idx,
    terminal_status: state.terminal_status,
    synthetic: state.synthetic,
  };
}

/** The object of `query flow <id>`. */
export function flowDetail(run: FlowRun): Response {
  const { state } = run;
  return {
    _schema_version: QUERY_SCHEMA_VERSION,
    flow_id: state.flow_id,
    flow_name: state.flow_name,
    status: persistedStatus(run),
    current_step_id: currentStep(run)?.id ?? null,
    current_idx: state.current_idx,
    round: state.round,
    rounds_count: state.rounds.length,
    step_count: run.flow.steps.length,
    terminal_status: state.terminal_status,
    synthetic: state.synthetic,
    step_outputs: state.step_outputs,
    records: state.records.map(recordWire),
    rounds: state.rounds.map((round) => round.map(recordWire)),
    ordered_steps: run.flow.steps.map((step) => ({
      id: step.id,
      function: step.function ?? "",
      mode: step.kind === "gate" ? "gate" : "step",
    })),
  };
}

/** Records are fixed-key objects in their documented key order; a spread gives them the wire type. */
function recordWire(record: TraceRecord): WireObject {
  return { ...record };
}

/** The element of `query gates` for a flow waiting at a gate; null for any other flow. */
export function pendingGate(run: FlowRun): Response | null {
  if (isFinished(run)) return null;
  const step = currentStep(run);
  if (step === null || step.kind !== "gate") return null;
  const fn = step.function === null ? undefined : run.spec.functions.get(step.function);
  return {
    _schema_version: QUERY_SCHEMA_VERSION,
    flow_id: run.state.flow_id,
    flow_name: run.state.flow_name,
    step_id: step.id,
    function: step.function ?? "",
    on_approve: step.onApprove,
    on_revise: step.onRevise,
    on_kill: step.onKill,
    timeout: fn?.timeout ?? null,
  };
}

/** `{"error": {"code": "NOT_FOUND", …}}` of `query flow` and `gate` for an unknown flow. */
export function flowNotFoundError(flowId: string): Response {
  return { error: { code: "NOT_FOUND", message: `Flow '${flowId}' not found` } };
}
