// A pipeline step (docs/reference/runtime.md §4.8): the agent runs each element's chain of stage
// tasks and reports them all (pipeline/consumer.ts); a pipeline with a fanout region is refused on
// this path, which the observer sees as the tool's error. The step's result is the aggregate by
// element, whose require, merge and certificate verdicts are its own, not its ensures'.
import type { StepIR } from "../../../checker/index";
import type { Violation } from "../../../interpreter/index";
import type { Plain } from "../session";
import type { FuzzKind, KindRun } from "./kind";
import { pipelineReport } from "./pipeline/consumer";

async function playStages(run: KindRun, payload: Plain, step: StepIR): Promise<Plain> {
  const flowId = typeof payload.flow_id === "string" ? payload.flow_id : "";
  const { aim, ...report } = pipelineReport(step, payload, run.decider, run.literals);
  const fansOut = step.pipeline?.fansOut === true;
  const r = await run.call("stratum_parallel_done", { flow_id: flowId, step_id: step.id, ...report });
  run.judged(flowId, step.id, fansOut ? "other" : aim, r);
  return r;
}

function isAggregateVerdict(v: Violation): boolean {
  return v.kind === "require" || v.kind === "merge_conflict" || (v.kind === "task" && v.check === "cert");
}

export const pipeline: FuzzKind = {
  fanOut: (run, payload, _flow, step) => playStages(run, payload, step),
  report: null,
  membersOf: null,
  reportsRounds: false,
  aggregate: { ownVerdict: isAggregateVerdict },
};
