// The policy loop (docs/reference/runtime.md §6.4): gates whose effective policy is `flag` or `skip` are
// auto-approved with a PolicyRecord and the flow moves on along their `on_approve` route, until a
// payload that is not a gate, a gate with policy `gate`, a gate seen before in this loop (a routing
// cycle: it must be resolved by hand), or the end of the flow.
import type { Response } from "../wire/wire";
import { completionPayload, finish } from "./completion";
import { indexOfStep } from "./current";
import { dispatchOrComplete } from "./dispatch";
import { appendItem } from "./edits";
import { policyRecord } from "./records";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/** Applies gate policies to a dispatch payload; returns the final payload (or completion). */
export function policyLoop(tx: Tx, run: FlowRun, payload: Response): Response {
  const seen = new Set<string>();
  let current = payload;
  while (current.status === "await_gate") {
    const gateId = current.step_id;
    if (typeof gateId !== "string" || seen.has(gateId)) break;
    seen.add(gateId);
    const gate = run.flow.stepById.get(gateId);
    // The IR gives every gate its policy, the default applied; null only on a step that is no gate.
    const policy = gate?.policy ?? null;
    if (gate === undefined || policy === null || policy === "gate") break;
    appendItem(run, "records", policyRecord(run, gateId, policy, `policy: ${policy} — auto-approved`));
    if (gate.onApprove === null) {
      finish(run);
      // Literally "complete", even for a flow killed earlier through a named on_kill (as the reference).
      return completionPayload(run, tx.clock, "complete");
    }
    run.state.current_idx = indexOfStep(run, gate.onApprove);
    current = dispatchOrComplete(tx, run);
  }
  return current;
}

/** Dispatch followed by the policy loop; the completion payload when the flow is finished. */
export function dispatchWithPolicy(tx: Tx, run: FlowRun): Response {
  return policyLoop(tx, run, dispatchOrComplete(tx, run));
}
