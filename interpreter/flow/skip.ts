// `stratum_skip_step` (docs/reference/runtime.md §7).
import type { SkipStepArgs } from "../api";
import { executionError, flowNotFound } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { budgetStopped } from "./budget-stop";
import { currentStep } from "./current";
import { appendItem, putEntry } from "./edits";
import { skipRecord } from "./records";
import { advance } from "./step-done";
import type { Tx } from "./tx";

export function skipStep(tx: Tx, args: SkipStepArgs): Response {
  const stopped = budgetStopped(tx, args.flow_id);
  if (stopped !== null) return stopped;
  const run = tx.edit(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const step = currentStep(run);
  if (step === null) return executionError("Flow is already complete");
  if (step.id !== args.step_id) return executionError(`Expected step '${step.id}', got '${args.step_id}'`);
  if (step.kind === "gate") {
    return executionError(`Step '${step.id}' is a gate step — use stratum_gate_resolve to resolve it`);
  }
  // Attempts are kept and an active child pointer is left as it is (as the reference).
  putEntry(run, "step_outputs", step.id, null);
  appendItem(run, "records", skipRecord(run, step.id, args.reason));
  run.state.current_idx += 1;
  return advance(tx, run);
}
