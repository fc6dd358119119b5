// A function step (docs/reference/runtime.md §3.2): the function's intent, contract and ensure.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import { functionStepPayload } from "../payloads";
import { replayCached } from "../result-cache";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { dispatchInputs } from "./shared/dispatch-inputs";

export const functionKind: FlowKind = {
  stepMode: "function",
  dispatch: dispatchFunction,
  replay: (tx, run, step) => replayCached(tx, run, step, functionKind.stepMode),
};

function dispatchFunction(tx: Tx, run: FlowRun, step: StepIR): Response {
  return functionStepPayload(run, step, dispatchInputs(tx, run, step), functionKind.stepMode);
}
