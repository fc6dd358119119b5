// A version 0.3 parallel step's task results processed as the step's result (docs/reference/runtime.md
// "parallel steps"): the aggregate is evaluated (evaluate.ts), checked like any step's result, and
// settles the attempt with the ordinary retry, exhaustion, on_fail and record rules (step-done.ts).
// stratum_parallel_done (the consumer's reports) and poll and advance (the settled server-side
// entries) come here.
import type { StepIR } from "../../../../checker/ir/types";
import type { PyValue } from "../../../../stdlib/values/value";
import type { Response } from "../../../wire/wire";
import { type MergeReport, withBouncedTasks } from "../../merge-report";
import { checkResult } from "../../result-checks";
import type { FlowRun } from "../../run";
import { beginAttempt, settleAttempt } from "../../step-done";
import type { Tx } from "../../tx";
import { evaluateParallelResults, judgedTasks, parallelOutcome } from "./evaluate";
import { validateViolations } from "./validate";

/** One attempt of a parallel step with these task results: evaluate, check, settle. */
export function processParallelResults(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  taskResults: readonly PyValue[],
  merge: MergeReport,
): Response {
  const evaluation = evaluateParallelResults(step, taskResults, merge, run.spec);
  const attempt = beginAttempt(run, step);
  const checked = checkResult(tx, run, step, evaluation.aggregate);
  // validate runs only once ensure, require and merge have passed (docs/reference/runtime.md §23.3).
  const passed = checked.ok && evaluation.failureReasons.length === 0;
  const validation = passed ? validateViolations(tx, run, step, judgedTasks(evaluation)) : [];
  const outcome = parallelOutcome(checked, evaluation, validation);
  const response = settleAttempt(tx, run, step, null, evaluation.aggregate, attempt, outcome);
  // Every failure envelope carries the bounce records, as 0.2.69's does.
  return outcome.ok ? response : withBouncedTasks(response, merge.bounced);
}
