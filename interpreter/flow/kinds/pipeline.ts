// A pipeline step (reference 0.2.69, docs/reference/runtime.md §4.8): stages over every element of
// its source, unfolded at dispatch into a graph of stage tasks that the agent runs and reports with
// stratum_parallel_done or the server runs with stratum_parallel_start (its executor routing the
// stages: kinds/pipeline/executor-plan.ts); judged by element. Its step_mode is
// parallel_dispatch, as the reference records it.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import type { DispatchOptions } from "../dispatch";
import { dropTaskEntries } from "../parallel-tasks";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { processPipelineResults } from "./pipeline/done";
import { pipelinePlan } from "./pipeline/executor-plan";
import { dispatchPipeline } from "./pipeline/payload";
import {
  advancePipeline,
  pipelineStartTasks,
  pipelineTaskIds,
  pollPipeline,
  refusePipelineStart,
} from "./pipeline/server";
import { dispatchInputs } from "./shared/dispatch-inputs";

function dispatch(tx: Tx, run: FlowRun, step: StepIR, options: DispatchOptions): Response {
  dispatchInputs(tx, run, step);
  const payload = dispatchPipeline(run, step);
  if (options.keepTasksOf !== step.id) dropTaskEntries(run);
  return payload;
}

export const pipelineKind: FlowKind = {
  stepMode: "parallel_dispatch",
  dispatch,
  parallelDone: processPipelineResults,
  server: {
    refuseStart: refusePipelineStart,
    startTasks: pipelineStartTasks,
    taskIds: pipelineTaskIds,
    executorPlan: pipelinePlan,
    poll: pollPipeline,
    advance: advancePipeline,
  },
};
