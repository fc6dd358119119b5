// A gate (docs/reference/runtime.md §3.2, docs/reference/runtime.md §5): a function step of `mode: gate` that waits for
// stratum_gate_resolve; its inputs are never resolved, and payloads and records name it a
// function step.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import { putTiming } from "../edits";
import { gatePayload } from "../payloads";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";

export const gateKind: FlowKind = {
  stepMode: "function",
  dispatch: awaitGate,
};

/** `await_gate`, with the wall-clock time the gate's timeout counts from. */
function awaitGate(tx: Tx, run: FlowRun, step: StepIR): Response {
  putTiming(run, "gateDispatchedAt", step.id, tx.clock.wallMs());
  return gatePayload(run, step);
}
