// stratum_parallel_poll's answer for every step kind with server-side tasks (docs/reference/runtime.md §23.7):
// the kinds judge their settled entries; what the answer says and does with that is shared.
import type { StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import type { StepArgs } from "../api";
import type { Response, Wire } from "../wire/wire";
import { currentStep } from "./current";
import { parallelToolError } from "./parallel-errors";
import { stateSummary } from "./parallel-tasks";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/** How a kind judges its settled entries at poll (docs/reference/runtime.md §23.7). */
export interface PollJudgement {
  readonly requireSatisfied: boolean;
  readonly canAdvance: boolean;
  readonly aggregate: Wire;
  /** The step waits for stratum_parallel_advance (`defer_advance`). */
  readonly deferred: boolean;
  /** Processes the aggregate on the flow being edited: the poll's `outcome`. */
  advance(run: FlowRun): Response;
}

/**
 * Poll's answer, the same for every kind with server-side tasks: the summary and entries, and once
 * every entry settled, the kind's judgement and what it did to the flow (already advanced, waiting
 * for the consumer, or advanced now).
 */
export function pollAnswer(
  tx: Tx,
  seen: FlowRun,
  step: StepIR,
  entries: ReadonlyMap<string, PyValue>,
  args: StepArgs,
  judge: (() => PollJudgement) | null,
): Response {
  let requireSatisfied = false;
  let canAdvance = false;
  let outcome: Wire = null;
  if (judge !== null) {
    const j = judge();
    requireSatisfied = j.requireSatisfied;
    canAdvance = j.canAdvance;
    if (currentStep(seen)?.id !== step.id) {
      outcome = { status: "already_advanced", aggregate: j.aggregate };
    } else if (j.deferred) {
      outcome = { status: "awaiting_consumer_advance", aggregate: j.aggregate };
    } else {
      const run = tx.edit(args.flow_id);
      if (run === null)
        return parallelToolError("flow_not_found", `No active flow with id '${args.flow_id}'`);
      outcome = j.advance(run);
    }
  }
  return {
    flow_id: args.flow_id,
    step_id: args.step_id,
    summary: stateSummary(entries.values()),
    tasks: entries,
    require_satisfied: requireSatisfied,
    can_advance: canAdvance,
    outcome,
  };
}
