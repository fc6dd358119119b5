// The parts every dispatch payload of stratumc's member steps shares (docs/reference/runtime.md §23.13 to
// docs/reference/runtime.md §23.15): a `parallel_dispatch` payload whose tasks are the members, all at once
// and in no worktree, so consumers of parallel payloads run them as they run tasks; and, for the
// steps whose members each produce the step's result (quorum, race), the step's checks.
import type { MemberStepKind } from "../../../../checker/base/step-kinds";
import type { StepIR } from "../../../../checker/ir/types";
import type { PyDict } from "../../../../stdlib/values/value";
import type { Wire, WireObject } from "../../../wire/wire";
import { outputFields, position } from "../../payloads";
import type { FlowRun } from "../../run";

/** `{status, flow_id, step_number, total_steps, step_id, step_mode, tasks, agent, max_concurrent, isolation}`. */
export function memberPayloadHead(
  run: FlowRun,
  step: StepIR,
  mode: MemberStepKind,
  tasks: readonly Wire[],
): WireObject {
  return {
    status: "parallel_dispatch",
    flow_id: run.state.flow_id,
    ...position(run),
    step_id: step.id,
    step_mode: mode,
    tasks,
    agent: step.agent,
    max_concurrent: tasks.length,
    isolation: "none",
  };
}

/** `{intent_template, intent, inputs, output_contract, output_fields, ensure}` of a quorum or race. */
export function memberResultChecks(run: FlowRun, step: StepIR, inputs: PyDict): WireObject {
  const intent = step.intent ?? "";
  return {
    intent_template: intent,
    intent,
    inputs,
    output_contract: step.outputContract,
    output_fields: outputFields(
      step.outputContract === null ? undefined : run.spec.contracts.get(step.outputContract),
    ),
    ensure: step.ensure.map((e) => e.text),
  };
}
