// The quorum step (stratumc's extension, docs/reference/runtime.md §23.13): N runs of one intent, the result
// that enough of them agree on wins; its votes are the audit's `quorum_votes`.
import type { MemberIR, StepIR } from "../../../checker/ir/types";
import type { FlowRun } from "../run";
import type { FlowKind } from "./descriptor";
import { quorumDone } from "./quorum/done";
import { quorumOf, quorumPayload, runIds } from "./quorum/payload";
import { memberKind } from "./shared/member-kind";

export const quorumKind: FlowKind = memberKind({
  stepMode: "quorum",
  judgementKey: "quorum_votes",
  payload: quorumPayload,
  done: quorumDone,
  members: quorumRuns,
  taskTimeout: (step) => quorumOf(step).taskTimeout,
  keepsJudgementOnDispatch: true,
  entriesPerRound: false,
});

/** The runs r1 … rN, each with the step's agent and intent. */
function quorumRuns(_run: FlowRun, step: StepIR): MemberIR[] {
  return runIds(quorumOf(step)).map((id) => ({ id, agent: step.agent, intent: step.intent ?? "" }));
}
