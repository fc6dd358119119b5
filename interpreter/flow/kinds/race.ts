// The race step (stratumc's extension, docs/reference/runtime.md §23.14): candidates judged as they report,
// the first that passes wins and the others are cancelled; the race so far is the audit's
// `race_outcomes`.
import type { MemberIR, StepIR } from "../../../checker/ir/types";
import type { FlowRun } from "../run";
import type { FlowKind } from "./descriptor";
import { judgedCandidates, raceDone, raceWon } from "./race/done";
import { raceOf, racePayload } from "./race/payload";
import { memberKind } from "./shared/member-kind";

export const raceKind: FlowKind = memberKind({
  stepMode: "race",
  judgementKey: "race_outcomes",
  payload: racePayload,
  done: raceDone,
  members: raceCandidates,
  taskTimeout: (step) => raceOf(step).taskTimeout,
  keepsJudgementOnDispatch: false,
  judgedSoFar: judgedCandidates,
  entriesPerRound: false,
  cancelsRestAt: raceWon,
});

function raceCandidates(_run: FlowRun, step: StepIR): readonly MemberIR[] {
  return raceOf(step).candidates;
}
