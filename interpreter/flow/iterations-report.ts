// `stratum_iteration_report` (docs/reference/runtime.md §9.2): counts the iteration, scores it (docs/reference/runtime.md §25.2),
// accumulates (docs/reference/runtime.md §9.3), evaluates the exit criterion, fingerprints the result, detects
// stagnation, records a history entry and, on any outcome but `continue`, closes the loop.
import type { ExpressionIR, StepIR } from "../../checker/ir/types";
import { strRepr } from "../../stdlib/values/repr";
import { truthy } from "../../stdlib/values/truth";
import type { PyValue } from "../../stdlib/values/value";
import type { IterationReportArgs } from "../api";
import type { IterationEntry } from "../base/flow-state";
import { executionError, flowNotFound } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { type Accumulation, accumulateReport, emptyAccumulator } from "./accumulator";
import { putEntry } from "./edits";
import { bindable, type Evaluation, evaluateIn } from "./expressions";
import { activeLoopFor, appendHistory, monotonicSeconds } from "./iterations-loop";
import { isStagnant, reportOutcome, resultFingerprint } from "./iterations-rules";
import {
  bestEntryOf,
  improvedBest,
  isScoreStagnant,
  type Score,
  scoreExpressionOf,
  scoreNames,
  scoreOf,
} from "./iterations-score";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";
import type { RaisedError } from "./violations";

export function iterationReport(tx: Tx, args: IterationReportArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const checked = activeLoopFor(run, args.step_id, "report");
  if (typeof checked === "string") return executionError(checked);
  const work = tx.edit(args.flow_id);
  if (work === null) return flowNotFound(args.flow_id);
  const step = work.flow.stepById.get(checked.step_id);
  // The loop was started on a step of this flow; a loop whose step vanished cannot be evaluated.
  if (step === undefined)
    return executionError(`Unknown step '${checked.step_id}' in the active iteration loop`);

  const loop = { ...checked, count: checked.count + 1 };
  work.state.active_iteration = loop;
  const result = args.result;
  const evaluate = (expr: ExpressionIR, name: string, value: PyValue): Evaluation =>
    evaluateIn(tx, work, expr, new Map([[name, bindable(value)]]));

  // The score comes first: exit_criterion's best_score already counts this iteration.
  const scoreExpr = scoreExpressionOf(step);
  const history = work.state.iterations.get(step.id) ?? [];
  let score: Score | null = null;
  if (scoreExpr !== null) {
    score = scoreOf(tx, work, scoreExpr, result);
    const improved = improvedBest(bestEntryOf(work, step.id), score.score, loop.count, result);
    if (improved !== null) putEntry(work, "iteration_best", step.id, improved);
  }
  const best = scoreExpr === null ? null : bestEntryOf(work, step.id);

  const accumulation = accumulateReport(
    work.state.iteration_accumulator.get(step.id) ?? emptyAccumulator(),
    step,
    result,
    evaluate,
  );
  putEntry(work, "iteration_accumulator", step.id, accumulation.accumulator);

  const extraNames = score === null ? null : scoreNames(best, history, loop.count);
  const criterion = evaluateExitCriterion(tx, work, step, result, accumulation, extraNames);
  const flowId = work.state.flow_id;
  if (score?.error != null) {
    tx.note({
      type: "expression_failed",
      flowId,
      stepId: step.id,
      field: "score_expr",
      error: score.raised,
      text: score.error,
    });
  }
  if (accumulation.error !== null) {
    const error = accumulation.raised;
    tx.note({
      type: "expression_failed",
      flowId,
      stepId: step.id,
      field: "accumulate",
      error,
      text: accumulation.error,
    });
  }
  if (criterion.error !== null) {
    const error = criterion.raised;
    tx.note({
      type: "expression_failed",
      flowId,
      stepId: step.id,
      field: "exit_criterion",
      error,
      text: criterion.error,
    });
  }
  const fingerprint = resultFingerprint(result);
  const stagnant =
    !criterion.met &&
    step.accumulate === null &&
    (score === null
      ? isStagnant(history, fingerprint)
      : step.exitCriterion === null && isScoreStagnant(history, best, score.score, loop.count));
  const outcome = reportOutcome({
    criterionMet: criterion.met,
    stagnant,
    count: loop.count,
    maxIterations: loop.max_iterations,
  });

  const withAccumulate = step.accumulate !== null;
  const entry: IterationEntry = {
    iteration: loop.count,
    round: work.state.round,
    result,
    result_fingerprint: fingerprint,
    exit_criterion_met: criterion.met,
    outcome,
    timestamp: monotonicSeconds(tx.clock),
    ...(score === null ? {} : scoreHistoryKeys(score)),
    ...(withAccumulate ? accumulateHistoryKeys(accumulation) : {}),
  };
  appendHistory(work, step.id, entry);
  if (outcome !== "continue") {
    putEntry(work, "iteration_outcome", step.id, outcome);
    work.state.active_iteration = null;
  }

  const exit = outcome !== "continue";
  return {
    status: exit ? "iteration_exit" : "iteration_continue",
    flow_id: work.state.flow_id,
    step_id: step.id,
    iteration: loop.count,
    max_iterations: loop.max_iterations,
    exit_criterion_met: criterion.met,
    outcome,
    exit_criterion_error: criterion.error ?? undefined,
    accumulate_error: accumulation.error ?? undefined,
    new_count: withAccumulate ? accumulation.newCount : undefined,
    dry_streak: withAccumulate ? accumulation.accumulator.dry_streak : undefined,
    final_result: exit ? (best?.result ?? result) : undefined,
    best_score: exit ? best?.score : undefined,
    best_iteration: exit ? best?.iteration : undefined,
    accumulated: exit && withAccumulate ? accumulation.accumulator.items : undefined,
    accumulated_count: exit && withAccumulate ? accumulation.accumulator.items.length : undefined,
  };
}

/** The score keys of a history entry: `score` always, `score_error` when there is none. */
function scoreHistoryKeys(score: Score): IterationEntry {
  return score.error === null ? { score: score.score } : { score: score.score, score_error: score.error };
}

/** The accumulate keys of a history entry, in the order of docs/reference/runtime.md §9.2. */
function accumulateHistoryKeys(accumulation: Accumulation): IterationEntry {
  const keys: Record<string, PyValue> = {
    new_count: accumulation.newCount,
    dry_streak: accumulation.accumulator.dry_streak,
    accumulated_count: accumulation.accumulator.items.length,
  };
  if (accumulation.error !== null) keys.accumulate_error = accumulation.error;
  return keys;
}

interface CriterionResult {
  readonly met: boolean;
  readonly error: string | null;
  readonly raised: RaisedError | null;
}

/**
 * The exit criterion with the names of docs/reference/language.md §10.6: `result`, with `score_expr` also
 * `best_score`, `prior_scores` and `iteration` (`scored`), and with `accumulate` also
 * `accumulator`, `accumulated_count`, `new_count` and `dry_streak`. No criterion: never met.
 */
function evaluateExitCriterion(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  result: PyValue,
  accumulation: Accumulation,
  scored: ReadonlyMap<string, PyValue> | null,
): CriterionResult {
  const expr = step.exitCriterion;
  if (expr === null) return { met: false, error: null, raised: null };
  const names = new Map<string, PyValue>([["result", bindable(result)], ...(scored ?? [])]);
  if (step.accumulate !== null) {
    const items = accumulation.accumulator.items;
    names.set("accumulator", items);
    names.set("accumulated_count", items.length);
    names.set("new_count", accumulation.newCount);
    names.set("dry_streak", accumulation.accumulator.dry_streak);
  }
  const value = evaluateIn(tx, run, expr, names);
  if (!value.ok) {
    // A helper's list of violations reads, as the reference's exit check words it, as a failed ensure.
    const error =
      value.error.violations === undefined
        ? `Ensure expression ${strRepr(expr.text)} raised: ${value.message}`
        : `ensure '${expr.text}' failed`;
    return { met: false, error, raised: value.error };
  }
  return { met: truthy(value.value), error: null, raised: null };
}
