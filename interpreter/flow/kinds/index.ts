// The interpreter's step kinds: one descriptor per kind of checker/base/step-kinds.ts's table, so
// a kind added there without its descriptor here does not compile. The tools ask this registry
// what a step does instead of branching on its kind.
import type { StepKind, StepMode } from "../../../checker/base/step-kinds";
import type { StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import { debateKind } from "./debate";
import { decomposeKind } from "./decompose";
import type { FlowKind } from "./descriptor";
import { flowKind } from "./flow";
import { functionKind } from "./function";
import { gateKind } from "./gate";
import { inlineKind } from "./inline";
import { judgeKind } from "./judge";
import { parallelDispatchKind } from "./parallel_dispatch";
import { pipelineKind } from "./pipeline";
import { quorumKind } from "./quorum";
import { raceKind } from "./race";

export const FLOW_KINDS: Readonly<Record<StepKind, FlowKind>> = {
  function: functionKind,
  gate: gateKind,
  inline: inlineKind,
  flow: flowKind,
  judge: judgeKind,
  decompose: decomposeKind,
  parallel_dispatch: parallelDispatchKind,
  pipeline: pipelineKind,
  quorum: quorumKind,
  race: raceKind,
  debate: debateKind,
};

/** The `step_mode` of a step as payloads, records and errors name it (docs/reference/runtime.md §11.1). */
export function stepModeOf(step: StepIR): StepMode {
  return FLOW_KINDS[step.kind].stepMode;
}

/** A poll whose judgement ended its step with tasks still running: the engine cancels them (a won race). */
export function pollCancelsRest(poll: Response): boolean {
  const outcome = poll.outcome ?? null;
  return Object.values(FLOW_KINDS).some((kind) => kind.server?.cancelsRestAt?.(outcome) === true);
}
