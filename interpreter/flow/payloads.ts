// The dispatch payloads of docs/reference/runtime.md §3.2, keys in the documented order.

import type { StepMode } from "../../checker/base/step-kinds";
import type { ContractIR, StepIR, WrittenNumberIR } from "../../checker/ir/types";
import { type PyDict, PyFloat, type PyValue } from "../../stdlib/values/value";
import type { Response, Wire } from "../wire/wire";
import { certificateOf, injectCertInstructions } from "./reasoning";
import type { FlowRun } from "./run";

/** `output_fields`: each contract field → its `type` as written, in declaration order (`{}` without a contract). */
export function outputFields(contract: ContractIR | undefined): ReadonlyMap<string, Wire> {
  const out = new Map<string, Wire>();
  if (contract !== undefined)
    for (const [name, field] of contract.fields) out.set(name, field.writtenType ?? field.type);
  return out;
}

export function position(run: FlowRun): { step_number: number; total_steps: number } {
  return { step_number: run.state.current_idx + 1, total_steps: run.flow.steps.length };
}

export function retriesRemaining(run: FlowRun, step: StepIR): number {
  return step.retries - (run.state.attempts.get(step.id) ?? 0);
}

/** A number as written: `2.0` stays a float. */
export function writtenNumber(n: WrittenNumberIR): PyValue {
  return n.float ? new PyFloat(n.value) : n.value;
}

/** `execute_step` for a function step (`stepMode` is the function kind's). */
export function functionStepPayload(
  run: FlowRun,
  step: StepIR,
  inputs: PyDict,
  stepMode: StepMode,
): Response {
  const { step_number, total_steps } = position(run);
  const fn = run.spec.functions.get(step.function ?? "");
  if (fn === undefined) throw new Error(`unknown function '${step.function}' of step '${step.id}'`);
  return {
    status: "execute_step",
    flow_id: run.state.flow_id,
    step_number,
    total_steps,
    step_id: step.id,
    step_mode: stepMode,
    function: fn.name,
    agent: step.agent,
    mode: fn.mode,
    intent: fn.intent,
    inputs,
    output_contract: fn.output,
    output_fields: outputFields(run.spec.contracts.get(fn.output)),
    ensure: fn.ensure.map((e) => e.text),
    retries_remaining: retriesRemaining(run, step),
  };
}

/**
 * `execute_step` for an inline or (version 0.3) decompose step: the kind's `step_mode`; a
 * decompose step's payload is an inline step's without `model`, as the reference's is.
 */
export function inlineStepPayload(
  run: FlowRun,
  step: StepIR,
  inputs: PyDict,
  kind: { readonly stepMode: StepMode; readonly withModel: boolean },
): Response {
  const { step_number, total_steps } = position(run);
  const payload: Record<string, Wire> = {
    status: "execute_step",
    flow_id: run.state.flow_id,
    step_number,
    total_steps,
    step_id: step.id,
    step_mode: kind.stepMode,
    intent: inlineIntent(step),
    agent: step.agent,
    inputs,
    output_contract: step.outputContract,
    output_fields: outputFields(
      step.outputContract === null ? undefined : run.spec.contracts.get(step.outputContract),
    ),
    ensure: step.ensure.map((e) => e.text),
    retries_remaining: retriesRemaining(run, step),
  };
  if (kind.withModel) payload.model = step.model;
  return payload;
}

/** An inline (or decompose) step's intent, with the reasoning sections a Claude agent must use (reasoning.ts). */
function inlineIntent(step: StepIR): string | null {
  const template = certificateOf(step);
  return template === null ? step.intent : injectCertInstructions(step.intent ?? "", template);
}

/** `await_gate` (a gate's inputs are never resolved). */
export function gatePayload(run: FlowRun, step: StepIR): Response {
  const fn = run.spec.functions.get(step.function ?? "");
  return {
    status: "await_gate",
    flow_id: run.state.flow_id,
    ...position(run),
    step_id: step.id,
    step_mode: "function",
    function: step.function,
    agent: step.agent,
    on_approve: step.onApprove,
    on_revise: step.onRevise,
    on_kill: step.onKill,
    timeout: fn?.timeout ?? null,
  };
}

/** `execute_flow` (no `flow_id` key); `childStep` is null when the child is already finished. */
export function executeFlowPayload(
  run: FlowRun,
  step: StepIR,
  child: FlowRun,
  childStep: Response | null,
): Response {
  return {
    status: "execute_flow",
    parent_flow_id: run.state.flow_id,
    parent_step_id: step.id,
    child_flow_id: child.state.flow_id,
    child_flow_name: child.state.flow_name,
    child_step: childStep,
    ...position(run),
  };
}
