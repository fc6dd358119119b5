// `stratum_parallel_poll` and `stratum_parallel_advance` (the server path): the state of a parallel
// step's tasks from the flow's `parallel_tasks`, and, once every task has settled, the aggregate
// processed as the step's result — by poll itself, or with `defer_advance` by advance with the
// consumer's merge status. Require and merge failures block the advance here as in
// stratum_parallel_done (decision B1; the reference advances anyway).
import type { StepIR } from "../../checker/ir/types";
import { dictSet } from "../../stdlib/values/dict";
import { strRepr } from "../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import type { ParallelAdvanceArgs, StepArgs } from "../api";
import type { Response, Wire } from "../wire/wire";
import { currentStep } from "./current";
import { evaluateParallelResults } from "./kinds/parallel_dispatch/evaluate";
import { parallelOf } from "./kinds/parallel_dispatch/payload";
import { memberPoll } from "./kinds/shared/member-poll";
import { runsMembers } from "./kinds/shared/member-tasks";
import { processParallelResults } from "./parallel-done";
import { parallelToolError } from "./parallel-errors";
import { taskIdsOf } from "./parallel-start";
import { entryResult, entryState, TERMINAL_TASK_STATES } from "./parallel-tasks";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/** The step's entries, in `parallel_tasks` order. */
function stepEntries(run: FlowRun, step: StepIR): Map<string, PyValue> {
  const ids = taskIdsOf(run, step);
  const out = new Map<string, PyValue>();
  for (const [id, value] of run.state.parallel_tasks) if (ids.has(id)) out.set(id, value);
  return out;
}

/** Settled entries as done-style task results: `{task_id, result, status}` (cancelled counts as failed). */
function taskResultsOf(entries: ReadonlyMap<string, PyValue>): PyValue[] {
  return [...entries].map(([id, value]) => {
    const d = new PyDict();
    dictSet(d, "task_id", id);
    dictSet(d, "result", entryResult(value));
    dictSet(d, "status", entryState(value) === "complete" ? "complete" : "failed");
    return d;
  });
}

function allSettled(entries: ReadonlyMap<string, PyValue>): boolean {
  return [...entries.values()].every((v) => TERMINAL_TASK_STATES.has(entryState(v)));
}

function isCurrent(run: FlowRun, step: StepIR): boolean {
  return currentStep(run)?.id === step.id;
}

export function parallelPoll(tx: Tx, args: StepArgs): Response {
  const seen = tx.read(args.flow_id);
  if (seen === null) return parallelToolError("flow_not_found", `No active flow with id '${args.flow_id}'`);
  const step = seen.flow.stepById.get(args.step_id);
  if (step === undefined)
    return parallelToolError("unknown_step", `Step '${args.step_id}' not found in flow`);
  const entries = stepEntries(seen, step);
  if (entries.size === 0) {
    const prose = `step '${args.step_id}' not dispatched yet; call stratum_parallel_start first`;
    return parallelToolError("not_dispatched", prose, prose);
  }
  // A quorum's runs or a race's candidates run by the server (docs/runtime.md §23.16).
  if (runsMembers(step)) return memberPoll(tx, seen, step, entries);
  const summary = { pending: 0, running: 0, complete: 0, failed: 0, cancelled: 0 };
  for (const value of entries.values()) summary[entryState(value)] += 1;
  let requireSatisfied = false;
  let canAdvance = false;
  let outcome: Wire = null;
  if (allSettled(entries)) {
    const results = taskResultsOf(entries);
    const evaluation = evaluateParallelResults(step, results, "clean", seen.spec);
    requireSatisfied = evaluation.requireSatisfied;
    canAdvance = evaluation.requireSatisfied && evaluation.mergeOk;
    if (!isCurrent(seen, step)) {
      outcome = { status: "already_advanced", aggregate: evaluation.aggregate };
    } else if (parallelOf(step).deferAdvance) {
      outcome = { status: "awaiting_consumer_advance", aggregate: evaluation.aggregate };
    } else {
      const run = tx.edit(args.flow_id);
      if (run === null)
        return parallelToolError("flow_not_found", `No active flow with id '${args.flow_id}'`);
      outcome = processParallelResults(tx, run, step, results, "clean");
    }
  }
  return {
    flow_id: args.flow_id,
    step_id: args.step_id,
    summary,
    tasks: entries,
    require_satisfied: requireSatisfied,
    can_advance: canAdvance,
    outcome,
  };
}

export function parallelAdvance(tx: Tx, args: ParallelAdvanceArgs): Response {
  const seen = tx.read(args.flow_id);
  if (seen === null) return parallelToolError("flow_not_found", `No active flow with id '${args.flow_id}'`);
  const step = seen.flow.stepById.get(args.step_id);
  if (step === undefined)
    return parallelToolError("unknown_step", `Step '${args.step_id}' not found in flow`);
  if (step.kind !== "parallel_dispatch") {
    return parallelToolError("wrong_step_type", `Step '${args.step_id}' is not a parallel_dispatch step`);
  }
  if (!parallelOf(step).deferAdvance) {
    return parallelToolError(
      "advance_not_deferred",
      `Step '${args.step_id}' does not have defer_advance: true. Auto-advance fires from stratum_parallel_poll; this tool is a no-op.`,
    );
  }
  if (args.merge_status !== "clean" && args.merge_status !== "conflict") {
    return parallelToolError(
      "invalid_merge_status",
      `merge_status must be 'clean' or 'conflict', got ${strRepr(args.merge_status)}`,
    );
  }
  if (!isCurrent(seen, step)) return { status: "already_advanced", step_id: args.step_id };
  const entries = stepEntries(seen, step);
  if (entries.size === 0) {
    return parallelToolError(
      "step_not_dispatched",
      `Step '${args.step_id}' not dispatched yet; call stratum_parallel_start first`,
    );
  }
  if (!allSettled(entries)) {
    return parallelToolError(
      "tasks_not_terminal",
      `Step '${args.step_id}' still has running tasks. Poll until outcome.status == 'awaiting_consumer_advance' before calling advance.`,
    );
  }
  const run = tx.edit(args.flow_id);
  if (run === null) return parallelToolError("flow_not_found", `No active flow with id '${args.flow_id}'`);
  return processParallelResults(tx, run, step, taskResultsOf(entries), args.merge_status);
}
