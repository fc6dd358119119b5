// The iteration tools (docs/reference/runtime.md §9): `stratum_iteration_start` and `stratum_iteration_abort` here,
// `stratum_iteration_report` in iterations-report.ts. Loops are advisory: they record history and
// an outcome; the step itself still completes only through `stratum_step_done`.
import type { StepIR } from "../../checker/ir/types";
import { dictFromRecord } from "../../stdlib/values/json";
import type { IterationAbortArgs, StepArgs } from "../api";
import type { ActiveIteration, IterationEntry } from "../base/flow-state";
import { executionError, flowNotFound } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { currentStep, isFinished } from "./current";
import { putEntry } from "./edits";
import { activeLoopFor, appendHistory, monotonicSeconds } from "./iterations-loop";
import { bestEntryOf } from "./iterations-score";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

export { iterationReport } from "./iterations-report";

export function iterationStart(tx: Tx, args: StepArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const startable = startableStep(run, args.step_id);
  if (typeof startable === "string") return executionError(startable);
  const { step, maxIterations } = startable;
  const work = tx.edit(args.flow_id);
  if (work === null) return flowNotFound(args.flow_id);
  const loop: ActiveIteration = {
    step_id: step.id,
    round: work.state.round,
    max_iterations: maxIterations,
    exit_criterion: step.exitCriterion?.text ?? null,
    score_expr: step.scoreExpr?.text ?? null,
    accumulate: step.accumulate?.text ?? null,
    accumulate_key: step.accumulateKey?.text ?? null,
    count: 0,
    // Informational (docs/reference/runtime.md §9.1): monotonic seconds, like the reference's time.monotonic().
    started_at: monotonicSeconds(tx.clock),
    status: "active",
  };
  work.state.active_iteration = loop;
  return {
    status: "iteration_started",
    flow_id: work.state.flow_id,
    step_id: step.id,
    max_iterations: loop.max_iterations,
    exit_criterion: loop.exit_criterion,
    iteration: 0,
  };
}

/** The step a loop may start on, or the execution-error message refusing it (docs/reference/runtime.md §9.1, in order). */
function startableStep(
  run: FlowRun,
  stepId: string,
): { readonly step: StepIR; readonly maxIterations: number } | string {
  const step = currentStep(run);
  if (isFinished(run) || step === null) return "Flow is already complete";
  if (step.id !== stepId) return `Expected step '${step.id}', got '${stepId}'`;
  if (step.kind === "gate") return `Step '${stepId}' is a gate step — cannot start iteration loop`;
  const maxIterations = step.maxIterations;
  if (maxIterations === null) return `Step '${stepId}' does not have max_iterations defined`;
  const active = run.state.active_iteration;
  if (active !== null) return `Iteration loop already active on step '${active.step_id}'`;
  const pending = run.state.iteration_outcome.get(stepId);
  if (pending !== undefined) {
    return `Step '${stepId}' already has a pending iteration outcome ('${pending}') — call stratum_step_done first`;
  }
  return { step, maxIterations };
}

export function iterationAbort(tx: Tx, args: IterationAbortArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const loop = activeLoopFor(run, args.step_id, "abort");
  if (typeof loop === "string") return executionError(loop);
  const work = tx.edit(args.flow_id);
  if (work === null) return flowNotFound(args.flow_id);
  const entry: IterationEntry = {
    iteration: loop.count,
    round: work.state.round,
    result: dictFromRecord({ aborted: true, reason: args.reason }),
    exit_criterion_met: false,
    outcome: "exit_abort",
    timestamp: monotonicSeconds(tx.clock),
  };
  appendHistory(work, loop.step_id, entry);
  putEntry(work, "iteration_outcome", loop.step_id, "exit_abort");
  work.state.active_iteration = null;
  // A scored loop reports its best so far (docs/reference/runtime.md §25.2), null before any score.
  const best = bestEntryOf(work, loop.step_id);
  const scored = best !== null || (loop.score_expr !== null && loop.score_expr !== "");
  return {
    status: "iteration_aborted",
    flow_id: work.state.flow_id,
    step_id: loop.step_id,
    iteration: loop.count,
    reason: args.reason,
    best_result: scored ? (best?.result ?? null) : undefined,
    best_score: scored ? (best?.score ?? null) : undefined,
  };
}
