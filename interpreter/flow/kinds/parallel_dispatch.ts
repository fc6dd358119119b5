// The version 0.3 parallel step (docs/reference/runtime.md §3.2, docs/reference/runtime.md "parallel steps"): tasks
// resolved from `source` at dispatch, run by the agent (stratum_parallel_done) or by the server's
// executor (start, poll, advance), judged together as the step's result.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import type { DispatchOptions } from "../dispatch";
import { dropTaskEntries } from "../parallel-tasks";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { processParallelResults } from "./parallel_dispatch/done";
import { parallelPlan } from "./parallel_dispatch/executor-plan";
import { parallelDispatchPayload, resolveTasks } from "./parallel_dispatch/payload";
import { advanceParallel, pollParallel } from "./parallel_dispatch/poll";
import { refuseBranchIsolation, sourceTaskIds, sourceTasks } from "./parallel_dispatch/tasks";
import { dispatchInputs } from "./shared/dispatch-inputs";

export const parallelDispatchKind: FlowKind = {
  stepMode: "parallel_dispatch",
  dispatch: dispatchParallel,
  parallelDone: processParallelResults,
  server: {
    refuseStart: refuseBranchIsolation,
    startTasks: sourceTasks,
    taskIds: sourceTaskIds,
    executorPlan: parallelPlan,
    poll: pollParallel,
    advance: advanceParallel,
  },
};

/** The inputs are resolved as for any step (the payload does not carry them), then the tasks. */
function dispatchParallel(tx: Tx, run: FlowRun, step: StepIR, options: DispatchOptions): Response {
  dispatchInputs(tx, run, step);
  const tasks = resolveTasks(run, step);
  // Any dispatch but stratum_resume's repeat of this step drops the server-side entries.
  if (options.keepTasksOf !== step.id) dropTaskEntries(run);
  return parallelDispatchPayload(run, step, tasks);
}
