// A pipeline step (reference 0.2.69, docs/reference/runtime.md §4.8): stages over every element of
// its source, unfolded at dispatch into a graph of stage tasks that the agent runs and reports with
// stratum_parallel_done; judged by element. Its step_mode is parallel_dispatch, as the reference
// records it. Server-side dispatch (stratum_parallel_start) is not implemented for pipelines yet:
// it is refused with its own error, and the step has no server-side entries to poll or advance.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import type { DispatchOptions } from "../dispatch";
import { parallelToolError } from "../parallel-errors";
import { dropTaskEntries } from "../parallel-tasks";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { processPipelineResults } from "./pipeline/done";
import { dispatchPipeline } from "./pipeline/payload";
import { dispatchInputs } from "./shared/dispatch-inputs";

function dispatch(tx: Tx, run: FlowRun, step: StepIR, options: DispatchOptions): Response {
  dispatchInputs(tx, run, step);
  const payload = dispatchPipeline(run, step);
  if (options.keepTasksOf !== step.id) dropTaskEntries(run);
  return payload;
}

function serverRefusal(_run: FlowRun, step: StepIR): Response {
  return parallelToolError(
    "pipeline_server_dispatch_unsupported",
    `Step '${step.id}' is a pipeline step: stratumc does not run pipelines server-side yet. Run the stage tasks yourself and report them with stratum_parallel_done.`,
  );
}

export const pipelineKind: FlowKind = {
  stepMode: "parallel_dispatch",
  dispatch,
  parallelDone: processPipelineResults,
  server: {
    refuseStart: serverRefusal,
    startTasks: serverRefusal,
    taskIds: () => new Set(),
    executorPlan: (step) => {
      throw new Error(`step '${step.id}': pipelines are not run server-side`);
    },
    poll: (_tx, seen, step) => serverRefusal(seen, step),
  },
};
