// What a person needs to answer the gate a flow waits at (stratum_gate_ask,
// docs/reference/runtime.md §16.8): the gate, its routes, the outcomes it can take now and the
// results under review. Read-only: the flow is never edited, so nothing is written and the
// revision stays. The refusals are exactly stratum_gate_resolve's (docs/reference/runtime.md §6.1)
// for the checks that do not depend on an outcome, so an asking client sees the same errors.
import type { StepIR } from "../../checker/ir/types";
import type { StepArgs } from "../api";
import { flowNotFound, toolError } from "../base/tool-errors";
import type { Response, WireObject } from "../wire/wire";
import { currentStep, indexOfStep, isFinished } from "./current";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

export function gateContext(tx: Tx, args: StepArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const step = currentStep(run);
  if (isFinished(run) || step === null) return toolError("flow_already_complete", "Flow is already complete");
  if (step.kind !== "gate") return toolError("not_a_gate_step", `Step '${step.id}' is not a gate step`);
  if (args.step_id !== step.id)
    return toolError("wrong_step", `Expected gate step '${step.id}', got '${args.step_id}'`);
  const fn = step.function === null ? undefined : run.spec.functions.get(step.function);
  const { state } = run;
  return {
    status: "gate_context",
    flow_id: state.flow_id,
    flow_name: state.flow_name,
    step_id: step.id,
    function: step.function,
    intent: step.intent ?? (fn?.intent || null),
    on_approve: step.onApprove,
    on_revise: step.onRevise,
    on_kill: step.onKill,
    round: state.round,
    max_rounds: run.flow.maxRounds,
    revision: state.revision,
    allowed_outcomes: allowedOutcomes(run, step),
    reviewed: reviewed(run, step),
  };
}

/**
 * approve and kill always apply. revise needs a target (the checker requires `on_revise`, but an
 * older spec may lack it, and a revise without one only re-asks the same gate) and a round left:
 * at `max_rounds` the engine refuses it (max_rounds_exceeded), so a person is not offered it.
 */
function allowedOutcomes(run: FlowRun, gate: StepIR): string[] {
  const maxRounds = run.flow.maxRounds;
  const reviseLeft = gate.onRevise !== null && (maxRounds === null || run.state.round < maxRounds);
  return reviseLeft ? ["approve", "revise", "kill"] : ["approve", "kill"];
}

/**
 * The results the gate decides on: the outputs of the steps it depends on (depends_on and the steps
 * its inputs read), else of the nearest earlier step that has one. Steps without a stored output
 * (not run in this round, skipped) are left out.
 */
function reviewed(run: FlowRun, gate: StepIR): WireObject[] {
  const outputs = run.state.step_outputs;
  const named = gate.dependencies.filter((id) => outputs.has(id) && outputs.get(id) !== null);
  if (named.length > 0) return named.map((id) => ({ step_id: id, output: outputs.get(id) }));
  const steps = run.flow.steps;
  for (let i = indexOfStep(run, gate.id) - 1; i >= 0; i--) {
    const id = steps[i]?.id;
    if (id === undefined) continue;
    const output = outputs.get(id);
    if (output !== undefined && output !== null) return [{ step_id: id, output }];
  }
  return [];
}
