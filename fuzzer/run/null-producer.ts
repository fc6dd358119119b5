// Whether a dispatched step read a null `$.steps.X` input. Most dispatches read none, and only one
// that does can show a skipped producer: the observer waits for the flow's trace (a promise) only then.
import type { FlowIR, StepIR } from "../../checker/index";
import type { Plain } from "./session";

/** Whether some `$.steps.X` input of `step` (X not a gate, whose output is always null) got null. */
export function readsNullProducer(flow: FlowIR, step: StepIR, inputs: Plain): boolean {
  for (const input of step.inputs) {
    if (input.ref?.scope !== "steps" || inputs[input.name] !== null) continue;
    if (flow.stepById.get(input.ref.name.name)?.kind !== "gate") return true;
  }
  return false;
}
