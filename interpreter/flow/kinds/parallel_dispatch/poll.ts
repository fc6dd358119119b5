// stratum_parallel_poll and stratum_parallel_advance on a version 0.3 parallel step (the server
// path): the state of its tasks from the flow's `parallel_tasks`, and, once every task has
// settled, the aggregate processed as the step's result — by poll itself, or with
// `defer_advance` by advance with the consumer's merge status. Require and merge failures block
// the advance here as in stratum_parallel_done (decision B1; the reference advances anyway).
// The `gate_failed` records the executor left on failed entries (`pre_merge_verify`) come first in
// the step's bounce records, before the consumer's, as in the reference.
import type { StepIR } from "../../../../checker/ir/types";
import { dictSet } from "../../../../stdlib/values/dict";
import { repr, strRepr } from "../../../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import type { ParallelAdvanceArgs, StepArgs } from "../../../api";
import type { Response } from "../../../wire/wire";
import { currentStep } from "../../current";
import { type MergeReport, mergeReportOf } from "../../merge-report";
import { parallelToolError } from "../../parallel-errors";
import { stepEntries } from "../../parallel-poll";
import { entryResult, entryState, TERMINAL_TASK_STATES } from "../../parallel-tasks";
import { type PollJudgement, pollAnswer } from "../../poll-answer";
import { gateBouncesOf } from "../../pre-merge-verify";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";
import { processParallelResults } from "./done";
import { evaluateParallelResults } from "./evaluate";
import { parallelOf } from "./payload";

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

/** The merge as the executor's entries and the consumer's report (clean with none) tell it. */
function mergeWithGates(entries: ReadonlyMap<string, PyValue>, reported: MergeReport | null): MergeReport {
  return {
    status: reported?.status ?? "clean",
    bounced: [...gateBouncesOf(entries), ...(reported?.bounced ?? [])],
  };
}

function isCurrent(run: FlowRun, step: StepIR): boolean {
  return currentStep(run)?.id === step.id;
}

export function pollParallel(
  tx: Tx,
  seen: FlowRun,
  step: StepIR,
  entries: ReadonlyMap<string, PyValue>,
  args: StepArgs,
): Response {
  const judge = (): PollJudgement => {
    const results = taskResultsOf(entries);
    const merge = mergeWithGates(entries, null);
    const evaluation = evaluateParallelResults(step, results, merge, seen.spec);
    return {
      requireSatisfied: evaluation.requireSatisfied,
      canAdvance: evaluation.requireSatisfied && evaluation.mergeOk,
      aggregate: evaluation.aggregate,
      deferred: parallelOf(step).deferAdvance,
      advance: (run) => processParallelResults(tx, run, step, results, merge),
    };
  };
  return pollAnswer(tx, seen, step, entries, args, allSettled(entries) ? judge : null);
}

export function advanceParallel(tx: Tx, seen: FlowRun, step: StepIR, args: ParallelAdvanceArgs): Response {
  if (!parallelOf(step).deferAdvance) {
    return parallelToolError(
      "advance_not_deferred",
      `Step '${args.step_id}' does not have defer_advance: true. Auto-advance fires from stratum_parallel_poll; this tool is a no-op.`,
    );
  }
  const merge = mergeReportOf(args.merge_status);
  if (merge.status !== "clean" && merge.status !== "conflict") {
    const given =
      typeof args.merge_status === "string" ? strRepr(args.merge_status) : repr(args.merge_status);
    return parallelToolError(
      "invalid_merge_status",
      `merge_status must be 'clean' | 'conflict' or {status: 'clean'|'conflict', bounced_tasks?}, got ${given}`,
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
  return processParallelResults(tx, run, step, taskResultsOf(entries), mergeWithGates(entries, merge));
}
