// stratum_parallel_done on a pipeline step (docs/reference/runtime.md §4.8): a pipeline with a
// fanout region is refused (its lanes and join gate run on the server only); otherwise the
// reports are judged against the graph unfolded from the source as it resolves now, then checked
// and settled like a parallel step's aggregate (ensure first, then require / merge / certificates).
import type { StepIR } from "../../../../checker/ir/types";
import type { PyValue } from "../../../../stdlib/values/value";
import { toolError } from "../../../base/tool-errors";
import type { Response } from "../../../wire/wire";
import { type MergeReport, withBouncedTasks } from "../../merge-report";
import { type CheckOutcome, checkResult } from "../../result-checks";
import type { FlowRun } from "../../run";
import { beginAttempt, settleAttempt } from "../../step-done";
import type { Tx } from "../../tx";
import { evaluatePipelineResults, type PipelineEvaluation } from "./evaluate";
import { sourceElements } from "./payload";
import { pipelineOf, unfoldPipeline } from "./tasks";

export function processPipelineResults(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  taskResults: readonly PyValue[],
  merge: MergeReport,
): Response {
  if (pipelineOf(step).fansOut) {
    return toolError(
      "fanout_server_dispatched_only",
      `Pipeline step '${step.id}' uses fanout/join — fanned-out pipelines are server-dispatched only (use stratum_parallel_start, not stratum_parallel_done).`,
    );
  }
  return settlePipelineResults(tx, run, step, taskResults, merge);
}

/**
 * The stage tasks' results (reported by the consumer, or the executor's entries at poll) judged
 * against the graph unfolded from the source as it resolves now, then settled as the step's result.
 */
export function settlePipelineResults(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  taskResults: readonly PyValue[],
  merge: MergeReport,
): Response {
  const graph = unfoldPipeline(step, sourceElements(run, step));
  const evaluation = evaluatePipelineResults(step, graph, taskResults, merge);
  const attempt = beginAttempt(run, step);
  const checked = checkResult(tx, run, step, evaluation.aggregate);
  const outcome = pipelineOutcome(checked, evaluation);
  const response = settleAttempt(tx, run, step, null, evaluation.aggregate, attempt, outcome);
  // Every failure envelope carries the bounce records, as 0.2.69's does.
  return outcome.ok ? response : withBouncedTasks(response, merge.bounced);
}

/** As a parallel step's (parallel_dispatch/evaluate.ts parallelOutcome): the checks first, then require and merge. */
function pipelineOutcome(checked: CheckOutcome, evaluation: PipelineEvaluation): CheckOutcome {
  if (!checked.ok) {
    return { ok: false, status: checked.status, reasons: [...checked.reasons, ...evaluation.taskViolations] };
  }
  if (evaluation.failureViolations.length > 0) {
    return { ok: false, status: "ensure_failed", reasons: [...evaluation.failureViolations] };
  }
  return { ok: true };
}
