// An inline step (docs/reference/runtime.md §3.2): its own intent, output contract and ensure, and `model`.
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import { inlineStepPayload } from "../payloads";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { dispatchInputs } from "./shared/dispatch-inputs";

export const inlineKind: FlowKind = {
  stepMode: "inline",
  dispatch: dispatchInline,
};

function dispatchInline(tx: Tx, run: FlowRun, step: StepIR): Response {
  return inlineStepPayload(run, step, dispatchInputs(tx, run, step), {
    stepMode: inlineKind.stepMode,
    withModel: true,
  });
}
