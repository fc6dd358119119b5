// A parallel_dispatch step (docs/reference/runtime.md §23.2): the agent runs the dispatched tasks and reports
// them all (parallel_dispatch/consumer.ts); the step's result is the aggregate of its tasks, whose
// require, merge and certificate verdicts are its own, not its ensures'.
import type { StepIR } from "../../../checker/index";
import type { Violation } from "../../../interpreter/index";
import { fromJsonValue } from "../../../stdlib/index";
import type { Plain } from "../session";
import type { FuzzKind, KindRun } from "./kind";
import { aggregateOf, parallelReport } from "./parallel_dispatch/consumer";

/**
 * The status of the payload that fans a step out, whatever its kind: the kinds whose members answer
 * one question are dispatched with this kind's payload (docs/reference/runtime.md §23.13).
 */
export const FAN_OUT_STATUS = "parallel_dispatch";

/** The consumer path of a parallel step: the agent runs the tasks and reports them. */
async function playTasks(run: KindRun, payload: Plain, step: StepIR): Promise<Plain> {
  const flowId = typeof payload.flow_id === "string" ? payload.flow_id : "";
  const { aim, ...report } = parallelReport(step, payload, run.decider, run.literals);
  const r = await run.call("stratum_parallel_done", { flow_id: flowId, step_id: step.id, ...report });
  run.judged(flowId, step.id, aim, r);
  const retried =
    (r.status === "ensure_failed" || r.status === "schema_failed" || r.status === "guardrail_blocked") &&
    r.step_id === step.id;
  if (!retried && r.status !== "error")
    run.setOutput(flowId, step.id, fromJsonValue(aggregateOf(step, report)));
  return r;
}

/** A parallel step's own verdicts (require, merge, task certificates), which are not its ensures' (docs/reference/runtime.md §23.2). */
function isAggregateVerdict(v: Violation): boolean {
  return v.kind === "require" || v.kind === "merge_conflict" || (v.kind === "task" && v.check === "cert");
}

export const parallel_dispatch: FuzzKind = {
  fanOut: (run, payload, _flow, step) => playTasks(run, payload, step),
  report: null,
  membersOf: null,
  reportsRounds: false,
  aggregate: { ownVerdict: isAggregateVerdict },
};
