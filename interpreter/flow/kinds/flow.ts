// A sub-flow step (docs/reference/runtime.md §8): dispatching it starts (or resumes) its child flow.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import type { FlowRun } from "../run";
import { dispatchSubflow } from "../subflow";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { dispatchInputs } from "./shared/dispatch-inputs";

export const flowKind: FlowKind = {
  stepMode: "flow",
  dispatch: dispatchFlow,
};

function dispatchFlow(tx: Tx, run: FlowRun, step: StepIR): Response {
  return dispatchSubflow(tx, run, step, dispatchInputs(tx, run, step));
}
