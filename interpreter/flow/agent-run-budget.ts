// A `stratum_agent_run` attributed to a flow by its `correlation_id` (see
// docs/reference/runtime.md §11.4 and docs/reference/runtime.md §16.6), as 0.2.69 attributes it: when the id names a flow with a run budget, the run is
// refused once a cap is reached (the flow then takes the terminal status `budget_exhausted`), and
// is charged when it ends, whatever its outcome — one dispatch, the tokens and dollars the agent
// reported, its wall seconds. A run whose id names no flow, or a flow without a ledger, is not
// budgeted. The host runs the agent; these are the two calls around it.
import type { AgentRunChargeArgs, AgentRunCheckArgs } from "../api";
import type { Response } from "../wire/wire";
import { budgetWire } from "./audit";
import { budgetExhausted, charged, nonnegFloat, nonnegInt } from "./budget";
import type { Tx } from "./tx";

/** The answer that lets the run go on (it changes no flow, so it writes nothing). */
const GO_ON: Response = { status: "ok" };

/** Before the run: `{status: "budget_exhausted", text: "", correlation_id, budget_state}`, or ok. */
export function agentRunCheck(tx: Tx, args: AgentRunCheckArgs): Response {
  const id = args.correlation_id;
  const seen = tx.read(id);
  if (seen === null || !budgetExhausted(seen.state.budget_state)) return GO_ON;
  const run = tx.edit(id);
  if (run === null) return GO_ON;
  if (run.state.terminal_status === null) run.state.terminal_status = "budget_exhausted";
  return {
    status: "budget_exhausted",
    text: "",
    correlation_id: id,
    budget_state: budgetWire(run.state.budget_state),
  };
}

/** After the run: the charge, and the terminal status when it reaches a cap. */
export function agentRunCharge(tx: Tx, args: AgentRunChargeArgs): Response {
  const seen = tx.read(args.correlation_id);
  if (seen === null || seen.state.budget_state === null) return GO_ON;
  const run = tx.edit(args.correlation_id);
  if (run === null || run.state.budget_state === null) return GO_ON;
  run.state.budget_state = charged(run.state.budget_state, {
    dispatches: 1,
    // Coerced as every charge is: bad numbers count as 0 and never credit the ledger.
    tokens: nonnegInt(args.tokens),
    dollars: nonnegFloat(args.dollars),
    wall_s: nonnegFloat(args.wall_s),
  });
  if (run.state.terminal_status === null && budgetExhausted(run.state.budget_state)) {
    run.state.terminal_status = "budget_exhausted";
  }
  return GO_ON;
}
