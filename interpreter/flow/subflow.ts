// Sub-flow steps (docs/reference/runtime.md §8): dispatching one (reuse the active child or create it) and
// detaching the child after the parent's step_done.
import type { StepIR } from "../../checker/ir/types";
import type { PyDict } from "../../stdlib/values/value";
import type { Response } from "../wire/wire";
import { isFinished } from "./current";
import { dispatch } from "./dispatch";
import { newRun } from "./new-flow";
import { executeFlowPayload } from "./payloads";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/**
 * The `execute_flow` payload of a sub-flow step whose inputs are resolved: the active child (if it
 * can be loaded; otherwise the pointer is cleared) or a new child from the same spec text. The
 * child's own first payload is its dispatch without the policy loop (docs/reference/runtime.md §6.4), or null when the
 * child is already finished (also when it finishes while skipping: the agent then reports the
 * child's completion, which `stratum_resume(child)` returns).
 */
export function dispatchSubflow(tx: Tx, parent: FlowRun, step: StepIR, inputs: PyDict): Response {
  let child: FlowRun | null = null;
  const activeId = parent.state.active_child_flow_id;
  if (activeId !== null) {
    child = tx.edit(activeId);
    if (child === null) parent.state.active_child_flow_id = null;
  }
  // A reused child repeats the payload of the step it is at: its parallel task entries stay.
  const reused = child?.flow.steps[child.state.current_idx]?.id;
  if (child === null) {
    child = createChild(tx, parent, step, inputs);
    parent.state.active_child_flow_id = child.state.flow_id;
  }
  const childStep = isFinished(child)
    ? null
    : dispatch(tx, child, reused === undefined ? {} : { keepTasksOf: reused });
  return executeFlowPayload(parent, step, child, childStep);
}

function createChild(tx: Tx, parent: FlowRun, step: StepIR, inputs: PyDict): FlowRun {
  const flow = parent.spec.flows.get(step.flow ?? "");
  if (flow === undefined) throw new Error(`unknown flow '${step.flow}' of step '${step.id}'`);
  const child = newRun(
    parent.spec,
    flow,
    {
      flowId: tx.ids.newFlowId(),
      rawSpec: parent.state.raw_spec,
      inputs,
      cwd: parent.state.cwd,
      parentFlowId: parent.state.flow_id,
      parentStepId: step.id,
    },
    tx.clock,
  );
  tx.create(child);
  return child;
}

/** Detaches the parent's active child (docs/reference/runtime.md §8.3): pointer cleared; the engine drops or deletes the child. */
export function detachChild(tx: Tx, parent: FlowRun, childId: string | null): void {
  if (childId !== null) tx.detach(childId);
  parent.state.active_child_flow_id = null;
}
