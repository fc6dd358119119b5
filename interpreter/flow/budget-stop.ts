// Where a flow's run budget stops it (docs/reference/runtime.md §11.4): charging the usage a
// stratum_step_done reports, and the hard stop at every entry that would advance the flow — the
// terminal status `budget_exhausted` and its payload instead of the next dispatch.

import { withFields } from "../../stdlib/values/own-property";
import type { PyValue } from "../../stdlib/values/value";
import type { Response } from "../wire/wire";
import { budgetWire } from "./audit";
import { budgetExhausted, charged, usageCharge } from "./budget";
import { completionPayload } from "./completion";
import { BUILT_IN_PRICING } from "./pricing";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/**
 * Charges a reported `usage` to the flow's ledger. Nothing happens without a ledger or when
 * `usage` is not an object; a model the pricing lacks is named when the flow has a `usd` cap.
 */
export function chargeUsage(tx: Tx, run: FlowRun, usage: PyValue | undefined): void {
  const ledger = run.state.budget_state;
  if (ledger === null || usage === undefined) return;
  const found = usageCharge(usage, tx.budget?.pricing ?? BUILT_IN_PRICING);
  if (found === null) return;
  if (found.unpriced !== null && ledger.caps.usd !== null) tx.budget?.unpriced(found.unpriced);
  run.state.budget_state = charged(ledger, found.charge);
}

/**
 * The budget_exhausted payload when the flow is stopped by its budget or a cap is now reached
 * (then it takes the terminal status; `run` must be a working copy); null when it may go on.
 */
export function budgetHalt(tx: Tx, run: FlowRun): Response | null {
  const state = run.state;
  if (state.terminal_status !== "budget_exhausted") {
    if (state.terminal_status !== null || !budgetExhausted(state.budget_state)) return null;
    state.terminal_status = "budget_exhausted";
  }
  return haltPayload(tx, run);
}

/**
 * The entry check of a call that would change the flow: the payload when it is stopped by its
 * budget (marking it when a cap was reached by an earlier charge), else null. Reads without
 * touching the flow when it is already marked, so a refused call writes nothing.
 */
export function budgetStopped(tx: Tx, flowId: string): Response | null {
  const seen = tx.read(flowId);
  if (seen === null) return null;
  if (seen.state.terminal_status === "budget_exhausted") return haltPayload(tx, seen);
  if (seen.state.terminal_status !== null || !budgetExhausted(seen.state.budget_state)) return null;
  const run = tx.edit(flowId);
  return run === null ? null : budgetHalt(tx, run);
}

/** `{status: "budget_exhausted", flow_id, output, trace, total_duration_ms, budget_state}`. */
function haltPayload(tx: Tx, run: FlowRun): Response {
  return withFields(completionPayload(run, tx.clock, "budget_exhausted"), {
    budget_state: budgetWire(run.state.budget_state),
  });
}
