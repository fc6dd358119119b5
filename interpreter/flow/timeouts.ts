// `stratum_check_timeouts` (docs/reference/runtime.md §6.3): a gate whose function has a `timeout` is killed by
// the system once that many seconds (wall clock) have passed since its last dispatch in this
// process. Dispatch times are not persisted, so after a restart the clock starts again the next
// time the gate payload is produced (as the reference).
import { PyFloat } from "../../stdlib/values/value";
import type { FlowArgs } from "../api";
import { flowNotFound } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { budgetStopped } from "./budget-stop";
import { currentStep, isFinished } from "./current";
import { resolveGate } from "./gates";
import type { Tx } from "./tx";

export function checkTimeouts(tx: Tx, args: FlowArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const gate = currentStep(run);
  if (isFinished(run) || gate === null) return noTimeout("Flow is already complete");
  if (gate.kind !== "gate") return noTimeout("Current step is not a gate step");
  const timeout = gate.function === null ? null : (run.spec.functions.get(gate.function)?.timeout ?? null);
  if (timeout === null) return noTimeout("Gate has no timeout configured");
  const dispatchedAt = run.timing.gateDispatchedAt.get(gate.id);
  if (dispatchedAt === undefined) return noTimeout("Gate not yet dispatched");
  const elapsedSeconds = (tx.clock.wallMs() - dispatchedAt) / 1000;
  if (elapsedSeconds < timeout) {
    // A float, as the reference's `timeout - elapsed` (also when the difference is integral).
    return { status: "no_timeout", remaining_seconds: new PyFloat(timeout - elapsedSeconds) };
  }
  const stopped = budgetStopped(tx, args.flow_id);
  if (stopped !== null) return stopped;
  const work = tx.edit(args.flow_id);
  if (work === null) return flowNotFound(args.flow_id);
  return resolveGate(tx, work, "kill", "timeout", "system", { killReason: "timeout" });
}

function noTimeout(message: string): Response {
  return { status: "no_timeout", message };
}
