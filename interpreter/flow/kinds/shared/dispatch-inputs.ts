// What every dispatch of a step that is not a gate begins with (docs/reference/runtime.md §3.1): its inputs
// resolved (an unresolvable input is an ExecutionFailure: the call commits nothing) and its
// dispatch time noted for the step's duration.
import type { StepIR } from "../../../../checker/ir/types";
import type { PyDict } from "../../../../stdlib/values/value";
import { putTiming } from "../../edits";
import { resolveInputs } from "../../inputs";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";

export function dispatchInputs(tx: Tx, run: FlowRun, step: StepIR): PyDict {
  const inputs = resolveInputs(run, step);
  putTiming(run, "stepDispatchedAt", step.id, tx.clock.monoMs());
  return inputs;
}
