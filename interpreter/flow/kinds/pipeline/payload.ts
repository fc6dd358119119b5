// The dispatch payload of a pipeline step (docs/reference/runtime.md §4.8): a parallel-dispatch
// payload over the unfolded stage tasks, with `pipeline: true`, the stages as written and no
// step-level intent_template.
import type { StepIR } from "../../../../checker/ir/types";
import { fromJsonValue } from "../../../../stdlib/values/json";
import type { PyValue } from "../../../../stdlib/values/value";
import { ExecutionFailure } from "../../../base/tool-errors";
import type { Response, Wire } from "../../../wire/wire";
import { resolveValue } from "../../inputs";
import { position, retriesRemaining, writtenNumber } from "../../payloads";
import type { FlowRun } from "../../run";
import { requireWire } from "../parallel_dispatch/payload";
import { pipelineOf, unfoldPipeline } from "./tasks";

/**
 * The source's elements: `source` resolved like an input, null as no element (the reference's
 * `list(… or [])`). Anything but a list is an execution error: the call commits nothing.
 */
export function sourceElements(run: FlowRun, step: StepIR): readonly PyValue[] {
  const pipeline = pipelineOf(step);
  const details = { flow_name: run.state.flow_name, step_id: step.id, source: pipeline.source };
  let value: PyValue;
  try {
    value = resolveValue(run, pipeline.source);
  } catch (e) {
    if (e instanceof ExecutionFailure) throw new ExecutionFailure(e.message, details);
    throw e;
  }
  if (value === null) return [];
  if (!Array.isArray(value)) {
    throw new ExecutionFailure(`Step '${step.id}': pipeline source is not a list`, details);
  }
  return value;
}

function pipelinePayload(run: FlowRun, step: StepIR, tasks: readonly PyValue[]): Response {
  const pipeline = pipelineOf(step);
  const ensure: Wire = step.ensure.map((e) => e.text);
  return {
    status: "parallel_dispatch",
    flow_id: run.state.flow_id,
    ...position(run),
    step_id: step.id,
    step_mode: "parallel_dispatch",
    tasks: [...tasks],
    agent: step.agent,
    max_concurrent: writtenNumber(pipeline.maxConcurrent),
    isolation: pipeline.isolation,
    require: requireWire(pipeline.require),
    merge: pipeline.merge,
    intent_template: null,
    ensure,
    retries_remaining: retriesRemaining(run, step),
    pipeline: true,
    stages: pipeline.stages.map((s) => fromJsonValue(s.written)),
  };
}

/** The payload with the step's tasks unfolded over its source as it resolves now. */
export function dispatchPipeline(run: FlowRun, step: StepIR): Response {
  return pipelinePayload(run, step, unfoldPipeline(step, sourceElements(run, step)));
}
