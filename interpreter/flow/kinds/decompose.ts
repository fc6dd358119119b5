// A version 0.3 decompose step (docs/reference/runtime.md §3.2): dispatched as an inline step without `model`,
// as the reference does.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import { inlineStepPayload } from "../payloads";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { dispatchInputs } from "./shared/dispatch-inputs";

export const decomposeKind: FlowKind = {
  stepMode: "decompose",
  dispatch: dispatchDecompose,
};

function dispatchDecompose(tx: Tx, run: FlowRun, step: StepIR): Response {
  return inlineStepPayload(run, step, dispatchInputs(tx, run, step), {
    stepMode: decomposeKind.stepMode,
    withModel: false,
  });
}
