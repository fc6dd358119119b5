// Dispatch (runtime.md §3): skip steps whose skip_if holds, auto-approve gates whose skip_if holds,
// and produce the payload of the step the agent must act on next.
import type { Response } from "../wire/wire";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/**
 * Runs the dispatch algorithm of §3.1 on a working copy. Returns the payload (execute_step,
 * await_gate or execute_flow), or null when the flow finished while skipping (NONE). Throws
 * ExecutionFailure when step inputs cannot be resolved. Does not run the policy loop.
 */
export function dispatch(tx: Tx, run: FlowRun): Response | null {
  void tx;
  void run;
  throw new Error("dispatch: not implemented yet (A1)");
}

/** dispatch, with the completion payload (§12) instead of NONE. */
export function dispatchOrComplete(tx: Tx, run: FlowRun): Response {
  return dispatch(tx, run) ?? completionPayloadStub(tx, run);
}

function completionPayloadStub(tx: Tx, run: FlowRun): Response {
  void tx;
  void run;
  throw new Error("not implemented yet (A1)");
}
