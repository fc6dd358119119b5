// `stratum_parallel_done` (the consumer path, docs/runtime.md "parallel steps"): the agent ran a
// parallel step's tasks itself and reports every task's result and the merge status at once. The
// aggregate is processed as the step's result (parallel-evaluate.ts), with the ordinary retry,
// exhaustion, on_fail and record rules (step-done.ts). Also what poll and advance use once the
// server-side tasks have settled.
import type { StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import type { ParallelDoneArgs } from "../api";
import { flowNotFound, toolError } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { currentStep } from "./current";
import { evaluateParallelResults, judgedTasks, parallelOutcome } from "./kinds/parallel_dispatch/evaluate";
import { validateViolations } from "./kinds/parallel_dispatch/validate";
import { runsMembers } from "./kinds/shared/member-tasks";
import { memberDone } from "./member-steps";
import { checkResult } from "./result-checks";
import type { FlowRun } from "./run";
import { beginAttempt, settleAttempt } from "./step-done";
import { stepModeOf } from "./step-mode";
import type { Tx } from "./tx";

export function parallelDone(tx: Tx, args: ParallelDoneArgs): Response {
  if (!Array.isArray(args.task_results)) {
    return toolError("invalid_arguments", "task_results: expected array");
  }
  const run = tx.edit(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const step = currentStep(run);
  if (step === null) return toolError("flow_complete", "Flow is already complete");
  if (step.id !== args.step_id) {
    return toolError("step_mismatch", `Expected step '${step.id}', got '${args.step_id}'`);
  }
  // A quorum's runs, a race's candidates and a debate round's arguments are reported like tasks
  // (stratumc's extensions, docs/runtime.md §23.13 to docs/runtime.md §23.15).
  if (runsMembers(step)) return memberDone(tx, run, step, args.task_results as readonly PyValue[]);
  if (step.kind !== "parallel_dispatch") {
    return toolError(
      "wrong_step_type",
      `Step '${args.step_id}' is a ${stepModeOf(step)} step, not parallel_dispatch. Use stratum_step_done for non-parallel steps.`,
    );
  }
  return processParallelResults(tx, run, step, args.task_results as readonly PyValue[], args.merge_status);
}

/** One attempt of a parallel step with these task results: evaluate, check, settle. */
export function processParallelResults(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  taskResults: readonly PyValue[],
  mergeStatus: string,
): Response {
  const evaluation = evaluateParallelResults(step, taskResults, mergeStatus, run.spec);
  const attempt = beginAttempt(run, step);
  const checked = checkResult(tx, run, step, evaluation.aggregate);
  // validate runs only once ensure, require and merge have passed (docs/runtime.md §23.3).
  const passed = checked.ok && evaluation.failureReasons.length === 0;
  const validation = passed ? validateViolations(tx, run, step, judgedTasks(evaluation)) : [];
  return settleAttempt(
    tx,
    run,
    step,
    null,
    evaluation.aggregate,
    attempt,
    parallelOutcome(checked, evaluation, validation),
  );
}
