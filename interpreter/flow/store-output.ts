// Where a step's output is stored with its record (an accepted result, a cached one, an exhausted
// result on_fail routes on with): the flow's `step_outputs`, and a fact for the call's events, so
// that an observer reads the value `$.steps.<id>.output` reads from then on
// (docs/reference/runtime.md §24.1, `step_finished`'s `output`).
import type { StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import { putEntry } from "./edits";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

export function storeOutput(tx: Tx, run: FlowRun, step: StepIR, output: PyValue): void {
  putEntry(run, "step_outputs", step.id, output);
  tx.note({ type: "output", flowId: run.state.flow_id, stepId: step.id, output });
}
