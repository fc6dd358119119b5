// `stratum_step_done` (docs/reference/runtime.md §4): check a reported result, then retry, exhaust (with or
// without on_fail routing) or store it and move on. Sub-flow steps unwrap the child's completion
// payload, snapshot the child's audit and detach the child whatever the outcome (docs/reference/runtime.md §8.2–8.3).
import type { StepIR } from "../../checker/ir/types";
import { dictGetStr, dictHas, dictSet } from "../../stdlib/values/dict";
import { withFields } from "../../stdlib/values/own-property";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import type { StepDoneArgs } from "../api";
import type { StepRecord } from "../base/flow-state";
import { executionError, flowNotFound } from "../base/tool-errors";
import type { Response, Wire } from "../wire/wire";
import { auditOf } from "./audit";
import { budgetHalt, budgetStopped, chargeUsage } from "./budget-stop";
import { completionPayload } from "./completion";
import { currentStep, indexOfStep } from "./current";
import { type DispatchOptions, dispatch } from "./dispatch";
import { appendItem, deleteEntry, putEntry } from "./edits";
import { bestEntryOf } from "./iterations-score";
import { FLOW_KINDS, stepModeOf } from "./kinds/index";
import { policyLoop } from "./policy";
import { stepRecord } from "./records";
import { storeCached } from "./result-cache";
import { type CheckOutcome, checkResult } from "./result-checks";
import { logRejection } from "./review-log";
import { clearFrom } from "./routing";
import type { FlowRun } from "./run";
import { storeOutput } from "./store-output";
import { detachChild } from "./subflow";
import type { Tx } from "./tx";
import { type Violation, violationTexts } from "./violations";

export function stepDone(tx: Tx, args: StepDoneArgs): Response {
  // A flow its budget stopped takes no more results: refused before anything changes (the
  // reference still records the result first, docs/reference/divergences.md DIV-BUDGET-AFTER-STOP).
  const stopped = budgetStopped(tx, args.flow_id);
  if (stopped !== null) return stopped;
  const run = tx.edit(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const step = currentStep(run);
  if (step?.kind === "gate") {
    return {
      status: "error",
      error_type: "gate_step_requires_gate_resolve",
      message: `Step '${step.id}' is a gate step. Use stratum_gate_resolve to resolve it.`,
    };
  }
  let result = args.result;
  let childId: string | null = null;
  let snapshot: Wire;
  if (step?.kind === "flow") {
    childId = run.state.active_child_flow_id;
    const child = childId === null ? null : tx.read(childId);
    if (child !== null) snapshot = auditOf(child, tx.clock);
    if (result instanceof PyDict && dictHas(result, "status") && dictHas(result, "output")) {
      result = dictGetStr(result, "output") ?? null;
    }
  }
  if (step === null) return executionError("Flow is already complete");
  if (step.id !== args.step_id) return executionError(`Expected step '${step.id}', got '${args.step_id}'`);
  // A kind that answers stratum_step_done itself (a debate's synthesis; its rounds are refused).
  const own = FLOW_KINDS[step.kind].stepDone;
  if (own !== undefined) {
    chargeUsage(tx, run, args.usage);
    return own(tx, run, step, result);
  }

  // A scored loop's best result stands in for the reported one, before any check (docs/reference/runtime.md §25.2).
  const best = bestEntryOf(run, step.id);
  if (best !== null) result = best.result;
  const attempt = beginAttempt(run, step);
  if (snapshot !== undefined) appendChildAudit(run, step.id, snapshot);
  const outcome = checkResult(tx, run, step, result);
  // Charged once the result was accepted for the current step, whatever its outcome: a failing
  // attempt's work counts too. A cap it reaches stops the flow where the outcome would go on.
  chargeUsage(tx, run, args.usage);
  return settleAttempt(tx, run, step, childId, result, attempt, outcome);
}

/** Counts a new attempt of the current step; returns its number. */
export function beginAttempt(run: FlowRun, step: StepIR): number {
  const attempt = (run.state.attempts.get(step.id) ?? 0) + 1;
  putEntry(run, "attempts", step.id, attempt);
  return attempt;
}

/**
 * The end of an attempt whose result was checked (docs/reference/runtime.md §4.4 to docs/reference/runtime.md §4.6): retry, exhaust or
 * succeed. stratum_parallel_done and the parallel poll/advance come here too, with the aggregate.
 */
export function settleAttempt(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  childId: string | null,
  result: PyValue,
  attempt: number,
  outcome: CheckOutcome,
): Response {
  if (!outcome.ok) {
    const last = attempt >= step.retries;
    logRejection(tx, run, step.id, attempt, last, violationTexts(outcome.reasons), result);
    if (!last) return retry(tx, run, step, childId, outcome.status, outcome.reasons);
    return exhaust(tx, run, step, childId, result, attempt, outcome.reasons);
  }
  return succeed(tx, run, step, childId, result, attempt);
}

/** docs/reference/runtime.md §4.4: the step stays current; its dispatch again with the failure status and the violations. */
function retry(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  childId: string | null,
  status: string,
  reasons: readonly Violation[],
): Response {
  const violations = rejected(tx, run, step, reasons);
  dropIterationState(run, step.id);
  deleteEntry(run, "iteration_outcome", step.id);
  if (step.kind === "flow") detachChild(tx, run, childId);
  const halted = budgetHalt(tx, run);
  if (halted !== null) return halted;
  const payload = dispatch(tx, run); // no policy loop on a retry re-dispatch
  if (payload === null) return withFields(completionPayload(run, tx.clock), { violations });
  return withFields(payload, { status, violations });
}

/** docs/reference/runtime.md §4.5: a StepRecord; then on_fail routing, or the `retries_exhausted` tool error. */
export function exhaust(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  childId: string | null,
  result: PyValue,
  attempt: number,
  reasons: readonly Violation[],
): Response {
  const violations = rejected(tx, run, step, reasons);
  appendItem(run, "records", recordOf(tx, run, step, childId, attempt));
  deleteEntry(run, "iteration_accumulator", step.id);
  if (step.kind === "flow") detachChild(tx, run, childId);
  const halted = budgetHalt(tx, run);
  if (halted !== null) return halted;
  if (step.onFail === null) {
    return {
      status: "error",
      error_type: "retries_exhausted",
      flow_id: run.state.flow_id,
      step_id: step.id,
      step_mode: stepModeOf(step),
      agent: step.agent,
      message: `Step '${step.id}' exhausted all retries`,
      violations,
    };
  }
  storeOutput(tx, run, step, result);
  tx.note({ type: "routed", flowId: run.state.flow_id, from: step.id, to: step.onFail, route: "on_fail" });
  clearFrom(run, step.onFail, new Set([step.id]));
  run.state.current_idx = indexOfStep(run, step.onFail);
  return withFields(advance(tx, run), { routed_from: step.id, violations });
}

/** docs/reference/runtime.md §4.6: store the output (with the accumulator merged), record, route by `next` or move on. */
export function succeed(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  childId: string | null,
  result: PyValue,
  attempt: number,
): Response {
  const accumulator = run.state.iteration_accumulator.get(step.id);
  let output = result;
  if (accumulator !== undefined && result instanceof PyDict) {
    const merged = new PyDict();
    for (const [k, v] of result.entries.values()) dictSet(merged, k, v);
    dictSet(merged, "accumulated", [...accumulator.items]);
    dictSet(merged, "accumulated_count", accumulator.items.length);
    output = merged;
  }
  storeOutput(tx, run, step, output);
  storeCached(tx, run, step, output);
  dropIterationState(run, step.id);
  appendItem(run, "records", recordOf(tx, run, step, childId, attempt));
  if (step.kind === "flow") detachChild(tx, run, childId);
  if (step.next !== null) {
    tx.note({ type: "routed", flowId: run.state.flow_id, from: step.id, to: step.next, route: "next" });
    clearFrom(run, step.next);
    run.state.current_idx = indexOfStep(run, step.next);
  } else {
    run.state.current_idx += 1;
  }
  deleteEntry(run, "iteration_outcome", step.id);
  // The step is recorded; a spent budget stops the flow before it moves on (also after its last step).
  return budgetHalt(tx, run) ?? advance(tx, run);
}

/** The response's `violations` of a rejected result; the typed reasons go to the call's events. */
export function rejected(tx: Tx, run: FlowRun, step: StepIR, reasons: readonly Violation[]): string[] {
  tx.note({ type: "verdict", flowId: run.state.flow_id, stepId: step.id, reasons });
  return violationTexts(reasons);
}

/** Dispatch + policy loop; the completion payload when the flow finished. */
export function advance(tx: Tx, run: FlowRun, options: DispatchOptions = {}): Response {
  const payload = dispatch(tx, run, options);
  return payload === null ? completionPayload(run, tx.clock) : policyLoop(tx, run, payload);
}

function dropIterationState(run: FlowRun, stepId: string): void {
  deleteEntry(run, "iteration_best", stepId);
  deleteEntry(run, "iteration_accumulator", stepId);
}

function appendChildAudit(run: FlowRun, stepId: string, snapshot: Wire): void {
  const list = run.state.child_audits.get(stepId) ?? [];
  putEntry(run, "child_audits", stepId, [...list, snapshot]);
}

function recordOf(tx: Tx, run: FlowRun, step: StepIR, childId: string | null, attempt: number): StepRecord {
  const since = run.timing.stepDispatchedAt.get(step.id) ?? run.timing.startedAt;
  return stepRecord(run, {
    step_id: step.id,
    function_name: step.kind === "function" ? (step.function ?? "") : "",
    attempts: attempt,
    duration_ms: Math.max(0, Math.trunc(tx.clock.monoMs() - since)),
    agent: step.agent,
    step_mode: stepModeOf(step),
    child_flow_id: step.kind === "flow" ? childId : null,
  });
}
