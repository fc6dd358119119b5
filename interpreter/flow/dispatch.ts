// Dispatch (docs/reference/runtime.md §3): skip steps whose skip_if holds, auto-approve gates whose skip_if holds,
// and produce the payload of the step the agent must act on next.
import type { StepIR } from "../../checker/ir/types";
import { truthy } from "../../stdlib/values/truth";
import type { PyValue } from "../../stdlib/values/value";
import type { Response } from "../wire/wire";
import { completionPayload } from "./completion";
import { currentStep, indexOfStep } from "./current";
import { appendItem, putEntry } from "./edits";
import { evaluateIn } from "./expressions";
import { FLOW_KINDS } from "./kinds/index";
import { policyRecord, skipRecord } from "./records";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

const NO_NAMES: ReadonlyMap<string, PyValue> = new Map<string, PyValue>();

export interface DispatchOptions {
  /**
   * stratum_resume repeats the payload of the step the flow is at: when that is this parallel
   * step, its server-side task entries are kept (any other dispatch of a parallel step drops them).
   */
  readonly keepTasksOf?: string;
}

/**
 * Runs the dispatch algorithm of docs/reference/runtime.md §3.1 on a working copy. Returns the payload (execute_step,
 * await_gate, execute_flow or parallel_dispatch), or null when the flow finished while skipping
 * (NONE). Throws ExecutionFailure when step inputs (or a parallel step's task list) cannot be
 * resolved. Does not run the policy loop.
 */
export function dispatch(tx: Tx, run: FlowRun, options: DispatchOptions = {}): Response | null {
  // Gates auto-approved by skip_if in this dispatch. A gate whose on_approve routes back to steps
  // that are all skipped would otherwise loop forever; as in the policy loop (docs/reference/runtime.md §6.4), the second
  // time round the gate waits to be resolved by hand (a documented choice: the spec is silent).
  const autoApproved = new Set<string>();
  for (;;) {
    const step = currentStep(run);
    if (step === null) return null;
    if (step.kind === "gate" && autoApproved.has(step.id)) {
      tx.warn(
        `skip_if of gate '${step.id}' held again after routing back to it; the gate waits for stratum_gate_resolve`,
      );
      return FLOW_KINDS[step.kind].dispatch(tx, run, step, options);
    }
    if (skipIfHolds(tx, run, step)) {
      if (step.kind === "gate") autoApproved.add(step.id);
      const reason = step.skipReason || `skip_if: ${step.skipIf?.text ?? ""}`;
      putEntry(run, "step_outputs", step.id, null);
      if (step.kind === "gate") {
        appendItem(run, "records", policyRecord(run, step.id, "skip_if", reason));
        run.state.current_idx =
          step.onApprove === null ? run.flow.steps.length : indexOfStep(run, step.onApprove);
      } else {
        appendItem(run, "records", skipRecord(run, step.id, reason));
        run.state.current_idx += 1;
      }
      continue;
    }
    // A cached step whose output the result cache still holds is not dispatched.
    if (FLOW_KINDS[step.kind].replay?.(tx, run, step) === true) continue;
    // The step the agent acts on next: its payload is its kind's (kinds/).
    return FLOW_KINDS[step.kind].dispatch(tx, run, step, options);
  }
}

/** dispatch, with the completion payload (docs/reference/runtime.md §12) instead of NONE. */
export function dispatchOrComplete(tx: Tx, run: FlowRun): Response {
  return dispatch(tx, run) ?? completionPayload(run, tx.clock);
}

/** skip_if, evaluated at every dispatch; a run-time error means "do not skip" plus a warning. */
function skipIfHolds(tx: Tx, run: FlowRun, step: StepIR): boolean {
  if (step.skipIf === null) return false;
  const evaluation = evaluateIn(tx, run, step.skipIf, NO_NAMES);
  if (evaluation.ok) return truthy(evaluation.value);
  const text = `skip_if of step '${step.id}' raised: ${evaluation.message}; the step was not skipped`;
  tx.warn(text);
  const flowId = run.state.flow_id;
  tx.note({
    type: "expression_failed",
    flowId,
    stepId: step.id,
    field: "skip_if",
    error: evaluation.error,
    text,
  });
  return false;
}
