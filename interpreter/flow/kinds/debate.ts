// The debate step (stratumc's extension, docs/reference/runtime.md §23.15): rounds of arguments with their
// history, `converge`, then a synthesis answered with stratum_step_done; where it stands is the
// audit's `debates`.
import type { MemberIR, StepIR } from "../../../checker/ir/types";
import type { Response } from "../../wire/wire";
import { parallelToolError } from "../parallel-errors";
import type { FlowRun } from "../run";
import { debatePayload, debaterIntent } from "./debate/payload";
import { debateRoundDone } from "./debate/round";
import { debateOf, readProgress } from "./debate/state";
import { debateStepDone } from "./debate/synthesis";
import type { FlowKind } from "./descriptor";
import { memberKind } from "./shared/member-kind";

export const debateKind: FlowKind = memberKind({
  stepMode: "debate",
  judgementKey: "debates",
  payload: debatePayload,
  done: debateRoundDone,
  members: debaters,
  taskTimeout: (step) => debateOf(step).taskTimeout,
  keepsJudgementOnDispatch: false,
  entriesPerRound: true,
  stepDone: debateStepDone,
  refuseStart: roundsOver,
});

/** The debaters of the round to play, each intent with the history so far. */
function debaters(run: FlowRun, step: StepIR): MemberIR[] {
  const debate = debateOf(step);
  const progress = readProgress(run, step);
  const round = progress.round + 1;
  return debate.debaters.map((d) => ({
    id: d.id,
    agent: d.agent,
    intent: debaterIntent(d, progress, round, debate.rounds),
  }));
}

/** The synthesis is an execute_step, not tasks the server can start. */
function roundsOver(run: FlowRun, step: StepIR): Response | null {
  if (readProgress(run, step).phase === "rounds") return null;
  return parallelToolError(
    "wrong_step_type",
    `Debate step '${step.id}' has finished its rounds: its synthesis is an execute_step reported with stratum_step_done.`,
  );
}
