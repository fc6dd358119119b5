// The `step_mode` of a step as payloads, records and errors name it (docs/reference/runtime.md §11.1): the
// version 0.3 kinds keep their own names; a gate is a function step there.
import type { StepIR } from "../../checker/ir/types";
import type { StepRecord } from "../base/flow-state";

export function stepModeOf(step: StepIR): StepRecord["step_mode"] {
  switch (step.kind) {
    case "flow":
    case "inline":
    case "decompose":
    case "parallel_dispatch":
    case "quorum":
    case "race":
    case "debate":
      return step.kind;
    default:
      return "function";
  }
}
