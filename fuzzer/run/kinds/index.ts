// The fuzzer's descriptor of every step kind (kind.ts): a kind the table names
// (checker/base/step-kinds.ts) without a descriptor here does not compile.
import { STEP_KIND_TABLE, STEP_KINDS, type StepIR } from "../../../checker/index";
import { debate } from "./debate";
import { decompose } from "./decompose";
import { flow } from "./flow";
import { fn } from "./function";
import { gate } from "./gate";
import { inline } from "./inline";
import { judge } from "./judge";
import type { FuzzKind } from "./kind";
import { parallel_dispatch } from "./parallel_dispatch";
import { pipeline } from "./pipeline";
import { quorum } from "./quorum";
import { race } from "./race";

export { FAN_OUT_STATUS } from "./parallel_dispatch";

/** Every kind a step can be (the IR names the kinds as the table does). */
type StepKind = StepIR["kind"];

export const FUZZ_KINDS: Readonly<Record<StepKind, FuzzKind>> = {
  function: fn,
  gate,
  inline,
  flow,
  judge,
  decompose,
  parallel_dispatch,
  pipeline,
  quorum,
  race,
  debate,
};

/** The step modes whose payloads fan out to tasks or members (a parallel_dispatch payload). */
const FANNED_OUT_MODES: ReadonlySet<string> = new Set(STEP_KINDS.filter((k) => STEP_KIND_TABLE[k].parallel));

/** Whether a payload's `step_mode` names a kind that fans out (its retry, too, is a fan-out payload). */
export function fansOut(stepMode: string): boolean {
  return FANNED_OUT_MODES.has(stepMode);
}
