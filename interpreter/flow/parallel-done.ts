// `stratum_parallel_done` (the consumer path, docs/reference/runtime.md "parallel steps"): the agent ran a
// step's tasks itself and reports them — a parallel step's every task and the merge status at
// once; a quorum's runs, a race's candidates and a debate round's arguments like tasks (stratumc's
// extensions, docs/reference/runtime.md §23.13 to docs/reference/runtime.md §23.15). What the reports do is the step
// kind's (kinds/); a kind without such reports is told to use stratum_step_done.
import type { PyValue } from "../../stdlib/values/value";
import type { ParallelDoneArgs } from "../api";
import { flowNotFound, toolError } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { budgetStopped } from "./budget-stop";
import { currentStep } from "./current";
import { FLOW_KINDS, stepModeOf } from "./kinds/index";
import { mergeReportOf } from "./merge-report";
import type { Tx } from "./tx";

export function parallelDone(tx: Tx, args: ParallelDoneArgs): Response {
  if (!Array.isArray(args.task_results)) {
    return toolError("invalid_arguments", "task_results: expected array");
  }
  const stopped = budgetStopped(tx, args.flow_id);
  if (stopped !== null) return stopped;
  const run = tx.edit(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const step = currentStep(run);
  if (step === null) return toolError("flow_complete", "Flow is already complete");
  if (step.id !== args.step_id) {
    return toolError("step_mismatch", `Expected step '${step.id}', got '${args.step_id}'`);
  }
  const reported = FLOW_KINDS[step.kind].parallelDone;
  if (reported === undefined) {
    return toolError(
      "wrong_step_type",
      `Step '${args.step_id}' is a ${stepModeOf(step)} step, not parallel_dispatch. Use stratum_step_done for non-parallel steps.`,
    );
  }
  return reported(tx, run, step, args.task_results as readonly PyValue[], mergeReportOf(args.merge_status));
}
