// The `parallel_dispatch` payload of a version 0.3 parallel step (docs/reference/runtime.md §3.2), keys in
// the reference's order, with its task list resolved from `source` at dispatch. (A decompose
// step's payload is the inline one without `model`: payloads.ts.)
import type { ParallelDispatchIR, StepIR } from "../../../../checker/ir/types";
import type { PyValue } from "../../../../stdlib/values/value";
import { ExecutionFailure } from "../../../base/tool-errors";
import type { Response, Wire } from "../../../wire/wire";
import { resolveValue } from "../../inputs";
import { taskGraphOf, taskGraphProblem } from "../../parallel-task-graph";
import { position, retriesRemaining, writtenNumber } from "../../payloads";
import { resolvePreMergeVerify } from "../../pre-merge-verify";
import type { FlowRun } from "../../run";

/** A parallel step's keys (present exactly on parallel_dispatch steps). */
export function parallelOf(step: StepIR): ParallelDispatchIR {
  const parallel = step.parallel ?? null;
  if (parallel === null) throw new Error(`step '${step.id}' is not a parallel_dispatch step`);
  return parallel;
}

export function requireWire(require: ParallelDispatchIR["require"]): PyValue {
  return typeof require === "string" ? require : writtenNumber(require);
}

/**
 * The task list: `source` resolved like an input (a literal is itself). An unresolvable `source`
 * and a task list whose dependencies are inconsistent (parallel-task-graph.ts) are execution
 * errors: the call commits nothing (decisions B7 and "task graph at dispatch").
 */
export function resolveTasks(run: FlowRun, step: StepIR): PyValue {
  const parallel = parallelOf(step);
  const details = { flow_name: run.state.flow_name, step_id: step.id, source: parallel.source };
  let tasks: PyValue;
  try {
    tasks = resolveValue(run, parallel.source);
  } catch (e) {
    if (e instanceof ExecutionFailure) throw new ExecutionFailure(e.message, details);
    throw e;
  }
  const problem = taskGraphProblem(taskGraphOf(tasks));
  if (problem !== null) throw new ExecutionFailure(`Step '${step.id}': ${problem}`, details);
  return tasks;
}

/**
 * `parallel_dispatch` (the step's resolved inputs are not part of it). The resolved
 * `pre_merge_verify` commands are added only when there are some, as 0.2.69 adds them, so that a
 * consumer running the tasks itself can run them too.
 */
export function parallelDispatchPayload(run: FlowRun, step: StepIR, tasks: PyValue): Response {
  const parallel = parallelOf(step);
  const ensure: Wire = step.ensure.map((e) => e.text);
  return {
    status: "parallel_dispatch",
    flow_id: run.state.flow_id,
    ...position(run),
    step_id: step.id,
    step_mode: "parallel_dispatch",
    tasks,
    agent: step.agent,
    max_concurrent: writtenNumber(parallel.maxConcurrent),
    isolation: parallel.isolation,
    require: requireWire(parallel.require),
    merge: parallel.merge,
    intent_template: parallel.intentTemplate,
    ensure,
    retries_remaining: retriesRemaining(run, step),
    ...preMergeVerifyPart(run, step),
  };
}

function preMergeVerifyPart(run: FlowRun, step: StepIR): { pre_merge_verify?: Wire } {
  const commands = resolvePreMergeVerify(run, step);
  return commands.length === 0 ? {} : { pre_merge_verify: commands };
}
