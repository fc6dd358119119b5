// The checker's descriptor of every step kind (checker/base/step-kinds.ts lists the kinds): the
// compiler rejects a kind without one. Adding a kind is a row in STEP_KIND_TABLE, a descriptor
// here (plus one in the interpreter and one in the fuzzer) and its rule fixtures.
import type { StepKind } from "../base/step-kinds";
import { DEBATE_KIND } from "./debate";
import { DECOMPOSE_KIND } from "./decompose";
import { FLOW_KIND } from "./flow";
import { FUNCTION_KIND } from "./function";
import { GATE_KIND } from "./gate";
import { INLINE_KIND } from "./inline";
import { JUDGE_KIND } from "./judge";
import { PARALLEL_DISPATCH_KIND } from "./parallel_dispatch";
import { PIPELINE_KIND } from "./pipeline";
import { QUORUM_KIND } from "./quorum";
import { RACE_KIND } from "./race";
import type { CheckerKind } from "./types";

export const CHECKER_KINDS: Readonly<Record<StepKind, CheckerKind>> = {
  function: FUNCTION_KIND,
  gate: GATE_KIND,
  inline: INLINE_KIND,
  flow: FLOW_KIND,
  judge: JUDGE_KIND,
  decompose: DECOMPOSE_KIND,
  parallel_dispatch: PARALLEL_DISPATCH_KIND,
  pipeline: PIPELINE_KIND,
  quorum: QUORUM_KIND,
  race: RACE_KIND,
  debate: DEBATE_KIND,
};
