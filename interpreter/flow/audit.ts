// `stratum_audit` (docs/reference/runtime.md §11.2): a read-only report of a flow's trace, rounds, iteration
// history (without the raw results) and child audits. Works on finished flows too, also after a
// restart (they are kept, DIV-KEEP-FINISHED).
import type { FlowArgs } from "../api";
import type { BudgetState, IterationEntry } from "../base/flow-state";
import { flowNotFound } from "../base/tool-errors";
import type { Response, Wire, WireObject } from "../wire/wire";
import { totalDurationMs } from "./completion";
import { isFinished } from "./current";
import { FLOW_KINDS } from "./kinds/index";
import type { Clock } from "./ports";
import { traceWire } from "./records";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/** The audit object of a flow (also the child audit snapshot of docs/reference/runtime.md §8.2). */
export function auditOf(run: FlowRun, clock: Clock): Response {
  const { state } = run;
  return {
    flow_id: state.flow_id,
    flow_name: state.flow_name,
    status: state.terminal_status ?? (isFinished(run) ? "complete" : "in_progress"),
    budget_state: budgetWire(state.budget_state),
    steps_completed: state.records.length,
    total_steps: run.flow.steps.length,
    trace: traceWire(state.records),
    // Steps answered from the result cache (docs/reference/runtime.md §25.4).
    cache_hits: state.records.filter((r) => r.type === "step" && r.cache_hit === true).length,
    total_duration_ms: totalDurationMs(run, clock),
    round: state.round,
    rounds: state.rounds.map((records, round) => ({ round, steps: traceWire(records) })),
    iterations: historyWithoutResults(state.iterations),
    archived_iterations: state.archived_iterations.map(historyWithoutResults),
    child_audits: new Map(state.child_audits),
    // The judgements of stratumc's member steps (docs/reference/runtime.md §23.13), each only when there are.
    ...judgements(run),
  };
}

/** The key of an entry whose step the flow no longer has: the quorum's, the first kind with judgements. */
const UNKNOWN_STEP_KEY = "quorum_votes";

/** `judge_outcome`, split by the kind of the step each entry belongs to (key order: first seen). */
function judgements(run: FlowRun): Record<string, Wire> {
  const out: Record<string, Map<string, Wire>> = {};
  for (const [stepId, value] of run.state.judge_outcome) {
    const step = run.flow.stepById.get(stepId);
    // A judge step's last turn is kept for the flow, as the reference keeps it, and not audited.
    if (step?.judge !== undefined && step.judge !== null) continue;
    const kind = step?.kind;
    // Each kind's own audit key (kinds/), e.g. `race_outcomes` for a race.
    const key = (kind === undefined ? undefined : FLOW_KINDS[kind].judgementKey) ?? UNKNOWN_STEP_KEY;
    out[key] ??= new Map();
    out[key].set(stepId, value);
  }
  return out;
}

/** `stratum_audit`: reads the flow, changes nothing. */
export function audit(tx: Tx, args: FlowArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  return auditOf(run, tx.clock);
}

/** The ledger as the audit and the budget_exhausted payload show it (a copy). */
export function budgetWire(budget: BudgetState | null): Wire {
  if (budget === null) return null;
  return { caps: { ...budget.caps }, consumed: { ...budget.consumed } };
}

function historyWithoutResults(iterations: ReadonlyMap<string, readonly IterationEntry[]>): Wire {
  const out = new Map<string, Wire>();
  for (const [stepId, entries] of iterations) out.set(stepId, entries.map(withoutResult));
  return out;
}

function withoutResult(entry: IterationEntry): WireObject {
  // Entries come from flow files too: a null prototype keeps any key (even `__proto__`) as data.
  const out: Record<string, Wire> = Object.create(null);
  for (const [key, value] of Object.entries(entry)) if (key !== "result") out[key] = value;
  return out;
}
